// Language test (P4 1.2.2+): generic struct, header and header_union types
// specialised with type arguments, a typedef of a specialisation, a header
// stack of a specialised header, and generic user functions.
#include <core.p4>

struct pair_s<A, B> {
    A first;
    B second;
}

struct wrapper_s<T> {
    pair_s<T, T> both;
    bool         valid;
}

header value_h<T> {
    T field;
}

header_union either_u<T> {
    value_h<bit<8>> small;
    value_h<T>      large;
}

typedef pair_s<bit<16>, bool> flagged_word_t;

struct generic_headers_t {
    value_h<bit<32>>     word;
    value_h<bit<8>>[4]   bytes;
    either_u<bit<64>>    choice;
}

T pick<T>(in bool first, in T a, in T b) {
    if (first) {
        return a;
    }
    return b;
}

control Generic(inout generic_headers_t h, inout flagged_word_t fw) {
    apply {
        wrapper_s<bit<16>> w = { both = { first = 1, second = 2 }, valid = true };
        pair_s<bit<8>, int<8>> p = { first = 8w1, second = -8s1 };
        fw.first = w.both.first + w.both.second;
        fw.second = w.valid && p.second < 0;
        h.word.field = pick(fw.second, 32w10, 32w20);
        h.bytes[0].field = pick<bit<8>>(true, p.first, 8w9);
        if (h.choice.large.isValid()) {
            h.choice.large.field = 64w0;
        }
    }
}
