// STF rule: tables applied in sequence see the effects of earlier
// actions: t2's key includes meta.vrf written by t1's action, t3's key is
// meta.nh written by t2's action (or by t2's default action on a miss).
// Each key is read when its table is applied, not at the start of ingress.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  port_in;
    bit<16> dst;
    bit<8>  vrf;
    bit<8>  nh;
    bit<8>  mac;
}

struct headers_t { h_t h; }
struct meta_t {
    bit<8> vrf;
    bit<8> nh;
}

parser TcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control TcVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    action set_vrf(bit<8> vrf) { meta.vrf = vrf; }
    table t1 {
        key = { hdr.h.port_in : exact; }
        actions = { set_vrf; }
        default_action = set_vrf(9);
    }
    action set_nh(bit<8> nh) { meta.nh = nh; }
    table t2 {
        key = {
            meta.vrf  : exact;
            hdr.h.dst : lpm;
        }
        actions = { set_nh; }
        default_action = set_nh(0x50);
    }
    action fwd(bit<9> port, bit<8> mac) {
        sm.egress_spec = port;
        hdr.h.mac = mac;
    }
    action drop_it() { mark_to_drop(sm); }
    table t3 {
        key = { meta.nh : exact; }
        actions = { fwd; drop_it; }
        default_action = drop_it();
    }
    apply {
        t1.apply();
        t2.apply();
        t3.apply();
        hdr.h.vrf = meta.vrf;
        hdr.h.nh = meta.nh;
    }
}

control TcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control TcCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control TcDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(TcParser(), TcVerify(), Ing(), TcEgress(), TcCompute(),
         TcDeparser()) main;
