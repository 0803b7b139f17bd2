// Realistic v1model program: strict source routing. Each packet carries a
// list of output ports in a header stack; every hop consumes the first entry
// with pop_front and forwards on it.
#include <core.p4>
#include <v1model.p4>

const bit<16> ETYPE_SRCROUTE = 0x1234;
const bit<16> ETYPE_IPV4     = 0x0800;
const int     MAX_HOPS       = 8;

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header srcroute_t {
    bit<1>  bos;
    bit<15> port;
}

header ipv4_t {
    bit<8>  ver_ihl;
    bit<8>  tos;
    bit<16> len;
    bit<16> id;
    bit<16> frag;
    bit<8>  ttl;
    bit<8>  proto;
    bit<16> csum;
    bit<32> src;
    bit<32> dst;
}

struct headers_t {
    ethernet_t           eth;
    srcroute_t[MAX_HOPS] hops;
    ipv4_t               ipv4;
}

struct meta_t {
    bit<32> hop_count;
}

parser SrParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        meta.hop_count = 0;
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            ETYPE_SRCROUTE : parse_hop;
            ETYPE_IPV4     : parse_ipv4;
            default        : accept;
        }
    }
    state parse_hop {
        pkt.extract(hdr.hops.next);
        meta.hop_count = meta.hop_count + 1;
        transition select(hdr.hops.last.bos) {
            1       : parse_ipv4;
            default : parse_hop;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control SrVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SrIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop(sm);
    }

    action consume_hop() {
        sm.egress_spec = (bit<9>)hdr.hops[0].port;
        if (hdr.hops[0].bos == 1) {
            hdr.eth.etype = ETYPE_IPV4;
        }
        hdr.hops.pop_front(1);
    }

    action plain_forward(bit<9> port) {
        sm.egress_spec = port;
    }

    table ipv4_fallback {
        key = { hdr.ipv4.dst : lpm; }
        actions = { plain_forward; drop; }
        default_action = drop();
    }

    apply {
        if (hdr.hops[0].isValid()) {
            consume_hop();
            if (hdr.ipv4.isValid()) {
                hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
            }
        } else if (hdr.ipv4.isValid()) {
            ipv4_fallback.apply();
        } else {
            drop();
        }
    }
}

control SrEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control SrCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SrDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.hops);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(SrParser(), SrVerify(), SrIngress(), SrEgress(), SrCompute(),
         SrDeparser()) main;
