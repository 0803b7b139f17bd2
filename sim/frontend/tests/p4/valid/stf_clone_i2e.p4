// STF rule: ingress-to-egress clone. With a configured session, a copy of
// the packet AS RECEIVED (re-parsed; ingress header changes not applied)
// goes to the session's port with instance_type INGRESS_CLONE (1) and only
// the field-list metadata; the original continues normally. An unconfigured
// session makes no copy.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  op;
    bit<8>  x;
    bit<8>  keep;
    bit<8>  lost;
    bit<8>  itype;
    bit<8>  eport;
}

struct headers_t {
    h_t h;
}

struct meta_t {
    @field_list(1)
    bit<8> keep;
    bit<8> lost;
}

parser CiParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control CiVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CiIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        hdr.h.x = 0xaa;
        meta.keep = 0x77;
        meta.lost = 0x99;
        sm.egress_spec = 2;
        if (hdr.h.op == 1) {
            clone_preserving_field_list(CloneType.I2E, 5, 1);
        } else if (hdr.h.op == 2) {
            clone_preserving_field_list(CloneType.I2E, 6, 1);
        }
    }
}

control CiEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.keep = meta.keep;
        hdr.h.lost = meta.lost;
        hdr.h.itype = (bit<8>)sm.instance_type;
        hdr.h.eport = (bit<8>)sm.egress_port;
    }
}

control CiCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CiDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(CiParser(), CiVerify(), CiIngress(), CiEgress(), CiCompute(),
         CiDeparser()) main;
