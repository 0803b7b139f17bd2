// Invalid: an abstract method implemented with another parameter type
// (code E0213).
#include <core.p4>

extern Filter<T> {
    Filter();
    abstract bool keep(in T value);
    void apply_to(in T value);
}

control F(in bit<8> x) {
    Filter<bit<8>>() f = {
        bool keep(in bit<16> value) { return value == 0; } // error: E0213
    };
    apply { f.apply_to(x); }
}
