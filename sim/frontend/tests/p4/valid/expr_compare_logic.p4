// Language test: comparisons (== != < <= > >=) on unsigned, signed, bool,
// enum, error, struct and header values, and the short-circuit logical
// operators && || ! on bool.
#include <core.p4>

enum Shade { Light, Dark }

struct pair_t {
    bit<8> x;
    bit<8> y;
}

header h_t {
    bit<8> f;
}

control Compare(in bit<8> a, in bit<8> b, in int<8> sa, in int<8> sb,
                in pair_t p, in pair_t q, in h_t h1, in h_t h2,
                in Shade shade, in error err, out bool r) {
    apply {
        bool c1 = a == b;
        bool c2 = a != b;
        bool c3 = a < b || a <= b;
        bool c4 = a > b && a >= b;
        bool c5 = sa < sb && sa >= -8s3;
        bool c6 = p == q || p != (pair_t){ x = 1, y = 2 };
        bool c7 = h1 == h2;
        bool c8 = shade == Shade.Dark;
        bool c9 = err != error.NoError;
        bool c10 = !c1 && (c2 || c3) && !(c4 || !c5);
        r = c10 || c6 && c7 || (c8 != c9) || c1 == true;
    }
}
