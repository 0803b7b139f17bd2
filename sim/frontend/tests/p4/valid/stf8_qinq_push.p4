// QinQ (802.1ad) provider edge: a per-port table gives the service VLAN
// (S-tag, TPID 0x88a8) and a default customer VLAN. An untagged frame gets
// both tags pushed (S-tag outer, C-tag 0x8100 inner, the original
// etherType after them); a frame already C-tagged keeps its C-tag and gets
// only the S-tag; a frame already S-tagged is dropped. Emit order follows
// the deparser: eth, stag, ctag, so the etherType chain is rewritten.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header vlan_t { bit<3> pcp; bit<1> dei; bit<12> vid; bit<16> etherType; }

struct headers_t { ethernet_t eth; vlan_t stag; vlan_t ctag; }
struct meta_t { }

parser QqParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etherType) {
            0x88a8: stag;
            0x8100: ctag;
            default: accept;
        }
    }
    state stag { pkt.extract(hdr.stag); transition accept; }
    state ctag { pkt.extract(hdr.ctag); transition accept; }
}

control QqVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control QqIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action push_tags(bit<12> svid, bit<3> spcp, bit<12> cvid, bit<9> uplink) {
        if (!hdr.ctag.isValid()) {
            hdr.ctag.setValid();
            hdr.ctag.pcp = 0;
            hdr.ctag.dei = 0;
            hdr.ctag.vid = cvid;
            hdr.ctag.etherType = hdr.eth.etherType;
        }
        hdr.stag.setValid();
        hdr.stag.pcp = spcp;
        hdr.stag.dei = 0;
        hdr.stag.vid = svid;
        hdr.stag.etherType = 0x8100;
        hdr.eth.etherType = 0x88a8;
        sm.egress_spec = uplink;
    }
    action drop() { mark_to_drop(sm); }
    table port_svc {
        key = { sm.ingress_port : exact; }
        actions = { push_tags; drop; }
        default_action = drop();
    }
    apply {
        if (hdr.stag.isValid()) {
            mark_to_drop(sm);
        } else {
            port_svc.apply();
        }
    }
}

control QqEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control QqCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control QqDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.eth); pkt.emit(hdr.stag); pkt.emit(hdr.ctag); }
}

V1Switch(QqParser(), QqVerify(), QqIngress(), QqEgress(), QqCompute(),
         QqDeparser()) main;
