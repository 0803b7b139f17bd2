// Invalid: an abstract method implemented with another parameter direction
// (code E0213).
#include <core.p4>

extern Hasher {
    Hasher();
    abstract bit<16> mix(in bit<16> a);
    bit<16> run(in bit<16> a);
}

control Hash(inout bit<16> v) {
    Hasher() h = {
        bit<16> mix(inout bit<16> a) { return a; } // error: E0213
    };
    apply { v = h.run(v); }
}
