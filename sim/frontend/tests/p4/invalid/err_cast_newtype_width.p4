// Invalid: a `type` is cast only from exactly its base type (E0208).
#include <core.p4>
type bit<8> Tag_t;
control C(inout bit<16> x) {
    apply { Tag_t t = (Tag_t) x; } // error: E0208
}
