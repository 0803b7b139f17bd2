// STF rule: bit slices and concatenation. `a ++ b` puts a in the high bits;
// `e[H:L]` reads bits H..L (both included); assigning to a slice changes only
// those bits of the target and leaves the others as they were, also on a
// header field that is emitted again.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<16> a;
    bit<8>  b;
    bit<8>  c;
}

header out_t {
    bit<24> cat;   // a ++ b
    bit<8>  mix;   // c[3:0] ++ b[7:4]
    bit<16> word;  // a with bits 11..4 replaced by b, bit 0 set, bit 15 = c[7]
    bit<8>  mid;   // (a ++ b)[19:12]
}

struct headers_t {
    in_t  i;
    out_t o;
}

struct meta_t { }

parser SlParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control SlVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SlIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.o.setValid();
        hdr.o.cat = hdr.i.a ++ hdr.i.b;
        hdr.o.mix = hdr.i.c[3:0] ++ hdr.i.b[7:4];
        hdr.o.word = hdr.i.a;
        hdr.o.word[11:4] = hdr.i.b;
        hdr.o.word[0:0] = 1w1;
        hdr.o.word[15:15] = hdr.i.c[7:7];
        hdr.o.mid = (hdr.i.a ++ hdr.i.b)[19:12];
        // The input header is changed in place: its high nibble copies its low one.
        hdr.i.c[7:4] = hdr.i.c[3:0];
    }
}

control SlEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control SlCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SlDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(SlParser(), SlVerify(), SlIngress(), SlEgress(), SlCompute(),
         SlDeparser()) main;
