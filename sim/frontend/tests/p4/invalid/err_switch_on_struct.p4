// Invalid: a struct value cannot be the expression of a switch (code E0304).
#include <core.p4>

struct pair_t {
    bit<8> a;
    bit<8> b;
}

control C(in pair_t p, out bit<8> code) {
    apply {
        switch (p) { // error: E0304
            default: { code = 0; }
        }
    }
}
