// Invalid: casts to tuple types are not supported (E0208).
#include <core.p4>
control C(inout bit<8> x) {
    apply { tuple<bit<8>> t = (tuple<bit<8>>) { x }; } // error: E0208
}
