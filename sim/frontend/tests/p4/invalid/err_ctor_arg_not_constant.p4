// Invalid: a constructor argument must be a compile-time constant (E0205).
#include <core.p4>
#include <v1model.p4>
control C(inout bit<32> x) {
    register<bit<8>>(x) slots; // error: E0205
    apply { }
}
