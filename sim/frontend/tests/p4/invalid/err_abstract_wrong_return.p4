// Invalid: an abstract method implemented with another return type
// (code E0213).
#include <core.p4>

extern Scorer {
    Scorer();
    abstract bit<8> score(in bit<8> x);
    bit<8> best();
}

control S(out bit<8> r) {
    Scorer() s = {
        bool score(in bit<8> x) { return x == 1; } // error: E0213
    };
    apply { r = s.best(); }
}
