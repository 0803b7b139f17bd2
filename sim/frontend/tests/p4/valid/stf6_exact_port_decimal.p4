// STF exact keys on standard_metadata.ingress_port (bit<9>) written in
// decimal, up to 510; `packet` ports are decimal too. The key name is the
// key expression's text, matched by suffix (ingress_port).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<16> tag;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser EpParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control EpVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EpIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action fwd(bit<9> port, bit<16> tag) {
        sm.egress_spec = port;
        hdr.h.tag = tag;
    }
    table by_port {
        key = { sm.ingress_port : exact; }
        actions = { fwd; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 2;
        by_port.apply();
    }
}

control EpEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control EpCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EpDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(EpParser(), EpVerify(), EpIngress(), EpEgress(), EpCompute(),
         EpDeparser()) main;
