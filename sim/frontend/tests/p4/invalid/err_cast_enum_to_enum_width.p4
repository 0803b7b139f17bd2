// Invalid: two serializable enums convert only with the same underlying type
// (E0208).
#include <core.p4>
enum bit<8> Small { A = 1 }
enum bit<16> Large { B = 1 }
control C(inout bit<8> x) {
    apply { Large l = (Large) Small.A; } // error: E0208
}
