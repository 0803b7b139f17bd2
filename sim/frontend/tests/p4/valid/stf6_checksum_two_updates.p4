// v1model compute-checksum control: update_checksum calls run in order
// (bmv2 runs the deparser's checksums in program order). Two updates of
// the same field: the last one whose condition holds wins; a later
// update sees the value an earlier one wrote; an update whose condition
// is false leaves the field as it is.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  op;
    bit<8>  pad;
    bit<16> a;
    bit<16> b;
    bit<16> c;    // written by two updates
    bit<16> d;    // csum16 over {a, c}: sees the final c
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser TuParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control TuVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control TuIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
    }
}

control TuEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control TuCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(true, { hdr.h.a }, hdr.h.c, HashAlgorithm.csum16);
        update_checksum(hdr.h.op == 1, { hdr.h.b }, hdr.h.c,
                        HashAlgorithm.csum16);
        update_checksum(true, { hdr.h.a, hdr.h.c }, hdr.h.d,
                        HashAlgorithm.csum16);
    }
}

control TuDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(TuParser(), TuVerify(), TuIngress(), TuEgress(), TuCompute(),
         TuDeparser()) main;
