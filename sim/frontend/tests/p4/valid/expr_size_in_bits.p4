// Language test (P4 1.2.3+): compile-time size methods minSizeInBits,
// minSizeInBytes, maxSizeInBits and maxSizeInBytes on fixed-size headers,
// a header with a varbit field, a struct, a header stack and a bit<> value.
#include <core.p4>

header fixed_h {
    bit<4>  a;
    bit<12> b;
    bit<16> c;
}

header var_h {
    bit<8>     len;
    varbit<64> data;
}

struct both_t {
    fixed_h f;
    var_h   v;
}

control Sizes(in both_t s, in fixed_h[3] stack, in bit<13> odd, out bit<32> total) {
    apply {
        bit<32> fixed_bits = (bit<32>)s.f.minSizeInBits();       // 32
        bit<32> fixed_bytes = (bit<32>)s.f.minSizeInBytes();     // 4
        bit<32> var_min = (bit<32>)s.v.minSizeInBits();          // 8
        bit<32> var_max = (bit<32>)s.v.maxSizeInBits();          // 72
        bit<32> var_max_bytes = (bit<32>)s.v.maxSizeInBytes();   // 9
        bit<32> struct_max = (bit<32>)s.maxSizeInBits();         // 104
        bit<32> stack_bits = (bit<32>)stack.minSizeInBits();     // 96
        bit<32> odd_bytes = (bit<32>)odd.minSizeInBytes();       // 2
        total = fixed_bits + fixed_bytes + var_min + var_max + var_max_bytes +
                struct_max + stack_bits + odd_bytes;
    }
}
