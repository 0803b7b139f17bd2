// Realistic v1model program: MPLS label switching with a header stack.
// The parser walks the stack with `next`/`last`/`lastIndex`; the ingress
// pushes, swaps and pops labels with push_front/pop_front and indexing.
#include <core.p4>
#include <v1model.p4>

#define MAX_LABELS 4

const bit<16> ETYPE_IPV4 = 0x0800;
const bit<16> ETYPE_MPLS = 0x8847;

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header mpls_t {
    bit<20> label;
    bit<3>  tc;
    bit<1>  bos;
    bit<8>  ttl;
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
    ethernet_t         eth;
    mpls_t[MAX_LABELS] mpls;
    ipv4_t             ipv4;
}

struct meta_t {
    bit<32> label_count;
}

parser MplsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        meta.label_count = 0;
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            ETYPE_MPLS : parse_mpls;
            ETYPE_IPV4 : parse_ipv4;
            default    : accept;
        }
    }

    state parse_mpls {
        pkt.extract(hdr.mpls.next);
        meta.label_count = hdr.mpls.lastIndex + 1;
        transition select(hdr.mpls.last.bos) {
            1w0 : parse_mpls;
            1w1 : parse_ipv4;
        }
    }

    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control MplsVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MplsIngress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {

    action drop() {
        mark_to_drop(sm);
    }

    // Ingress LER: impose one label on an IPv4 packet.
    action push_label(bit<20> label, bit<9> port) {
        hdr.mpls.push_front(1);
        hdr.mpls[0].setValid();
        hdr.mpls[0].label = label;
        hdr.mpls[0].tc = 0;
        hdr.mpls[0].bos = 1;
        hdr.mpls[0].ttl = hdr.ipv4.ttl;
        hdr.eth.etype = ETYPE_MPLS;
        sm.egress_spec = port;
    }

    // LSR: swap the top label.
    action swap_label(bit<20> label, bit<9> port) {
        hdr.mpls[0].label = label;
        hdr.mpls[0].ttl = hdr.mpls[0].ttl - 1;
        sm.egress_spec = port;
    }

    // Penultimate hop: pop the top label; restore IPv4 if it was the last one.
    action pop_label(bit<9> port) {
        if (hdr.mpls[0].bos == 1) {
            hdr.eth.etype = ETYPE_IPV4;
        }
        hdr.mpls.pop_front(1);
        sm.egress_spec = port;
    }

    table ipv4_ftn {
        key = {
            hdr.ipv4.dst : lpm;
        }
        actions = { push_label; drop; }
        default_action = drop();
    }

    table mpls_lfib {
        key = {
            hdr.mpls[0].label : exact;
        }
        actions = { swap_label; pop_label; drop; }
        default_action = drop();
    }

    apply {
        if (hdr.mpls[0].isValid()) {
            if (hdr.mpls[0].ttl <= 1) {
                drop();
            } else {
                mpls_lfib.apply();
            }
        } else if (hdr.ipv4.isValid()) {
            ipv4_ftn.apply();
        } else {
            drop();
        }
    }
}

control MplsEgress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply {
        // A full stack cannot take another label: the last slot must be free.
        if (hdr.mpls[MAX_LABELS - 1].isValid() && hdr.mpls.size == MAX_LABELS) {
            hdr.mpls[MAX_LABELS - 1].tc = 7;
        }
    }
}

control MplsCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MplsDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.mpls);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(MplsParser(), MplsVerify(), MplsIngress(), MplsEgress(),
         MplsCompute(), MplsDeparser()) main;
