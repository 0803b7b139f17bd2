// Wide values: bit<128> and int<96> arithmetic (+, -, *, shifts across the
// 64-bit boundary, comparisons signed and unsigned), slices that straddle
// 64 bits, concatenation up to 128 bits, casts that widen with sign
// extension and narrow by truncation, all-ones constants from -1.
#include <core.p4>
#include <v1model.p4>

header in_t { bit<64> hi; bit<64> lo; }
header out_t {
    bit<128> sum; bit<128> shl; bit<128> shr; bit<32> mid; bit<8> cmp;
    bit<96> sext; bit<128> mul; bit<48> ones; bit<64> trunc;
}
struct headers_t { in_t i; out_t o; }
struct meta_t { }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        bit<128> v = hdr.i.hi ++ hdr.i.lo;
        hdr.o.sum = v + 128w1;
        hdr.o.shl = v << 68;
        hdr.o.shr = v >> 60;
        hdr.o.mid = v[79:48];
        int<96> s = (int<96>)v[95:0];
        bit<8> cmp = 0;
        if (v > 128w0xffff_ffff_ffff_ffff) { cmp = cmp | 1; }
        if (s < 0) { cmp = cmp | 2; }
        if (v[127:64] == hdr.i.hi) { cmp = cmp | 4; }
        hdr.o.cmp = cmp;
        hdr.o.sext = (bit<96>)(s >> 90);
        hdr.o.mul = v * 128w0x1_0000_0001;
        hdr.o.ones = (bit<48>)-1;
        hdr.o.trunc = (bit<64>)(v >> 32);
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.o); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
