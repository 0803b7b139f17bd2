// Invalid: a serializable enum is cast only from its exact underlying type
// (E0208).
#include <core.p4>
enum bit<8> Kind { A = 1 }
control C(inout bit<16> x) {
    apply { Kind k = (Kind) x; } // error: E0208
}
