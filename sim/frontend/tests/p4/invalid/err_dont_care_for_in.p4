// Invalid: `_` is an argument only for an out parameter (E0200).
#include <core.p4>
extern void consume(in bit<8> x);
control C(inout bit<8> x) {
    apply { consume(_); } // error: E0200
}
