// STF rule (name resolution): a table is named by its full control-plane
// name or by a unique suffix of it. Tables of nested control instances are
// named by instance path (Ing.m1.leaf.t), so `m1.leaf.t` and `solo.t` pick
// one instance each; `ipv4_lpm` finds Ing.ipv4_lpm; the key `dstAddr` finds
// hdr.ipv4.dstAddr (suffix on a `.` boundary); actions are found by full
// name or suffix among the table's actions.
#include <core.p4>
#include <v1model.p4>

header ipv4_t {
    bit<8>  k1;
    bit<8>  k2;
    bit<8>  k3;
    bit<8>  r1;
    bit<8>  r2;
    bit<8>  r3;
    bit<32> dstAddr;
}

struct headers_t { ipv4_t ipv4; }
struct meta_t { }

parser SnParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.ipv4); transition accept; }
}

control SnVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Leaf(in bit<8> k, inout bit<8> r) {
    action set(bit<8> v) { r = v; }
    table t {
        key = { k : exact; }
        actions = { set; NoAction; }
        default_action = NoAction();
    }
    apply { t.apply(); }
}

control Mid(in bit<8> k, inout bit<8> r) {
    Leaf() leaf;
    apply { leaf.apply(k, r); }
}

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    Mid() m1;
    Mid() m2;
    Leaf() solo;
    action fwd(bit<9> port) { sm.egress_spec = port; }
    action drop_it() { mark_to_drop(sm); }
    table ipv4_lpm {
        key = { hdr.ipv4.dstAddr : lpm; }
        actions = { fwd; drop_it; }
        default_action = drop_it();
    }
    apply {
        m1.apply(hdr.ipv4.k1, hdr.ipv4.r1);
        m2.apply(hdr.ipv4.k2, hdr.ipv4.r2);
        solo.apply(hdr.ipv4.k3, hdr.ipv4.r3);
        ipv4_lpm.apply();
    }
}

control SnEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control SnCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control SnDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.ipv4); }
}

V1Switch(SnParser(), SnVerify(), Ing(), SnEgress(), SnCompute(),
         SnDeparser()) main;
