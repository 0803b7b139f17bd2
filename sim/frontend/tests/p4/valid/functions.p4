// Language test: top-level functions — with return values of several types,
// void functions with out/inout parameters, functions calling functions and
// extern functions, early returns on every path, and calls from parsers,
// controls and actions.
#include <core.p4>

extern bit<32> external_mix(in bit<32> a);

bit<32> max32(in bit<32> a, in bit<32> b) {
    return a > b ? a : b;
}

bool in_range(in bit<16> v, in bit<16> lo, in bit<16> hi) {
    return v >= lo && v <= hi;
}

bit<8> bucket(in bit<16> v) {
    if (v < 64) {
        return 0;
    } else if (v < 1024) {
        return 1;
    } else {
        return 2;
    }
}

void split(in bit<32> word, out bit<16> high, out bit<16> low) {
    high = word[31:16];
    low = word[15:0];
}

void saturating_increment(inout bit<8> counter) {
    counter = counter |+| 1;
}

bit<32> combine(in bit<16> high, in bit<16> low) {
    bit<32> joined = high ++ low;
    return external_mix(max32(joined, 32w1));
}

header word_h {
    bit<32> w;
}

parser FnParser(packet_in pkt, out word_h hdr) {
    state start {
        pkt.extract(hdr);
        transition select(in_range(hdr.w[15:0], 16w10, 16w20)) {
            true  : accept;
            false : reject;
        }
    }
}

control FnControl(inout word_h hdr, inout bit<8> count) {
    action rebuild() {
        bit<16> hi;
        bit<16> lo;
        split(hdr.w, hi, lo);
        hdr.w = combine(lo, hi);
    }
    apply {
        rebuild();
        saturating_increment(count);
        count = count + bucket(hdr.w[15:0]);
    }
}
