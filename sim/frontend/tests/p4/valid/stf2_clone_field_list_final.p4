// STF rule (simple_switch after-ingress / after-egress pseudocode): a clone
// preserves the FINAL values of its field-list metadata, i.e. the values
// when ingress (I2E) or egress (E2E) ends, not the values when
// clone_preserving_field_list was called; writes after the call count.
// Fields outside the list start at 0 in the clone.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> a;
    bit<8> b;
    bit<8> itype;
}

struct headers_t {
    h_t h;
}

struct meta_t {
    @field_list(1)
    bit<8> a;
    @field_list(2)
    bit<8> b;
}

parser CfParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control CfVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CfIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        meta.a = 0x11;
        if (hdr.h.op == 1) {
            clone_preserving_field_list(CloneType.I2E, 5, 1);
        }
        meta.a = 0x22;    // after the call: this is the value the clone gets
    }
}

control CfEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 0 && hdr.h.op == 2) {
            meta.b = 0x44;
            clone_preserving_field_list(CloneType.E2E, 6, 2);
            meta.b = 0x55;
        }
        hdr.h.a = meta.a;
        hdr.h.b = meta.b;
        hdr.h.itype = (bit<8>)sm.instance_type;
    }
}

control CfCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CfDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(CfParser(), CfVerify(), CfIngress(), CfEgress(), CfCompute(),
         CfDeparser()) main;
