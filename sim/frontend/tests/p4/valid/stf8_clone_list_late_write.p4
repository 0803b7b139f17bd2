// simple_switch after-ingress: the clone's field list is copied from the
// original's PHV when ingress has finished (copy_field_list_and_set_type
// runs after ingress_mau->apply), so writes made after the clone call, by
// later tables' actions and statements, are what the clone carries. A
// field that was never written before the call is carried too.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> cnt;
    bit<8> tag;
    bit<8> other;
    bit<8> itype;
}

struct headers_t { h_t h; }
struct meta_t {
    @field_list(1) bit<8> cnt;
    @field_list(1) bit<8> tag;
    bit<8> other;
}

parser LwParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control LwVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control LwIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action mirror(bit<32> session) {
        meta.cnt = 1;
        clone_preserving_field_list(CloneType.I2E, session, 1);
        meta.cnt = meta.cnt + 1;
    }
    action set_tag(bit<8> t) {
        meta.tag = t;
        meta.cnt = meta.cnt + 10;
    }
    table mirror_t {
        key = { hdr.h.op : exact; }
        actions = { mirror; NoAction; }
        default_action = NoAction();
    }
    table tag_t {
        key = { hdr.h.op : exact; }
        actions = { set_tag; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 2;
        mirror_t.apply();
        tag_t.apply();
        meta.other = 0x0f;
        if (hdr.h.op == 2) {
            meta.cnt = meta.cnt + 100;
        }
    }
}

control LwEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.cnt = meta.cnt;
        hdr.h.tag = meta.tag;
        hdr.h.other = meta.other;
        hdr.h.itype = (bit<8>)sm.instance_type;
    }
}

control LwCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control LwDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(LwParser(), LwVerify(), LwIngress(), LwEgress(), LwCompute(),
         LwDeparser()) main;
