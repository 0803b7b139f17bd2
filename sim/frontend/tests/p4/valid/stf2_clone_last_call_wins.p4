// STF rule (simple_switch): with several clone calls in one ingress pass
// only the LAST one counts, both its session and its field list; the
// earlier calls make no copy. If the last call names a session that is not
// configured, no clone is made at all.
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

parser ClParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control ClVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ClIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        meta.a = 0x11;
        meta.b = 0x22;
        if (hdr.h.op == 1) {
            clone_preserving_field_list(CloneType.I2E, 5, 1);
            clone_preserving_field_list(CloneType.I2E, 6, 2);
        } else if (hdr.h.op == 2) {
            clone_preserving_field_list(CloneType.I2E, 6, 2);
            clone_preserving_field_list(CloneType.I2E, 5, 1);
        } else if (hdr.h.op == 3) {
            clone_preserving_field_list(CloneType.I2E, 5, 1);
            clone_preserving_field_list(CloneType.I2E, 7, 1);  // session 7 is not configured
        }
    }
}

control ClEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.a = meta.a;
        hdr.h.b = meta.b;
        hdr.h.itype = (bit<8>)sm.instance_type;
    }
}

control ClCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ClDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(ClParser(), ClVerify(), ClIngress(), ClEgress(), ClCompute(),
         ClDeparser()) main;
