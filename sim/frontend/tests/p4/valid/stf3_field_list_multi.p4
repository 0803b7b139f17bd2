// v1model @field_list: recirculate_preserving_field_list(n) keeps, for
// the next pass, the user metadata fields annotated @field_list(n); a
// field may belong to several lists (@field_list(1, 2)); an annotated
// leaf inside a nested struct is kept while its unannotated siblings, and
// unannotated struct members, are zeroed like all other metadata.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> passes;
    bit<8> keep_x;
    bit<8> keep_y;
    bit<8> both;
    bit<8> only2;
    bit<8> drop_x;
    bit<8> part_p;
    bit<8> part_q;
    bit<8> itype;
}

struct pair_t {
    bit<8> x;
    bit<8> y;
}

struct part_t {
    @field_list(1)
    bit<8> p;
    bit<8> q;
}

struct meta_t {
    pair_t keep;
    @field_list(1, 2)
    bit<8> both;
    @field_list(2)
    bit<8> only2;
    pair_t drop;
    part_t part;
}

struct headers_t { h_t h; }

parser FlParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control FlVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    apply {
        hdr.h.passes = hdr.h.passes + 1;
        if (sm.instance_type == 0) {
            meta.keep = { 0x11, 0x12 };
            meta.both = 0x13;
            meta.only2 = 0x14;
            meta.drop = { 0x15, 0x16 };
            meta.part = { 0x17, 0x18 };
        } else {
            hdr.h.keep_x = meta.keep.x;
            hdr.h.keep_y = meta.keep.y;
            hdr.h.both = meta.both;
            hdr.h.only2 = meta.only2;
            hdr.h.drop_x = meta.drop.x | meta.drop.y;
            hdr.h.part_p = meta.part.p;
            hdr.h.part_q = meta.part.q;
            hdr.h.itype = (bit<8>)sm.instance_type;
        }
        sm.egress_spec = 2;
    }
}

control FlEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (hdr.h.passes == 1) {
            if (hdr.h.op == 1) {
                recirculate_preserving_field_list(1);
            } else if (hdr.h.op == 2) {
                recirculate_preserving_field_list(2);
            }
        }
    }
}

control FlCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control FlDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(FlParser(), FlVerify(), Ing(), FlEgress(), FlCompute(),
         FlDeparser()) main;
