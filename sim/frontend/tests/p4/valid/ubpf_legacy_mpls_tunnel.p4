// uBPF program written against the OLDER uBPF surface: it defines
// UBPF_MODEL_VERSION 20200304 before the include, so there is no
// standard_metadata, the parser and pipeline take one parameter fewer, and
// the only forwarding decision is pass / drop (mark_to_pass /
// mark_to_drop); where the packet goes is up to the switch's own rules.
// Like many programs of that time it includes the model before core.p4.
//
// The program is an MPLS edge: IPv4 packets whose destination is in the
// `push_label` table get an MPLS label pushed in front of the IP header;
// labelled packets found in `pop_label` get their label removed.  A
// Register indexed by a struct counts packets per (label, direction).
#define UBPF_MODEL_VERSION 20200304
#include <ubpf_model.p4>
#include <core.p4>

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<16> ETHERTYPE_MPLS = 0x8847;

header ethernet_h { bit<48> dst; bit<48> src; bit<16> ether_type; }
header mpls_h     { bit<20> label; bit<3> tc; bit<1> bos; bit<8> ttl; }
header ipv4_h {
    bit<4>  version;  bit<4>  ihl;      bit<8>  tos;     bit<16> total_len;
    bit<16> ident;    bit<3>  flags;    bit<13> frag_offset;
    bit<8>  ttl;      bit<8>  protocol; bit<16> checksum;
    bit<32> src;      bit<32> dst;
}

struct headers_t {
    ethernet_h ethernet;
    mpls_h     mpls;
    ipv4_h     ipv4;
}

struct stats_key_t {
    bit<32> label;
    bit<32> pushed;   // 1 when the label was pushed here, 0 when popped
}

struct meta_t {
    stats_key_t stats_key;
}

parser EdgeParser(packet_in pkt, out headers_t hdr, inout meta_t meta) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_MPLS: parse_mpls;
            ETHERTYPE_IPV4: parse_ipv4;
            default:        accept;
        }
    }
    state parse_mpls {
        pkt.extract(hdr.mpls);
        transition select(hdr.mpls.bos) {
            1:       parse_ipv4;
            default: accept;      // inner labels stay in the payload
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control EdgePipe(inout headers_t hdr, inout meta_t meta) {
    Register<bit<32>, stats_key_t>(1024) label_packets;

    action push(bit<20> label, bit<3> tc) {
        hdr.mpls.setValid();
        hdr.mpls.label = label;
        hdr.mpls.tc = tc;
        hdr.mpls.bos = 1;
        hdr.mpls.ttl = hdr.ipv4.ttl;
        hdr.ethernet.ether_type = ETHERTYPE_MPLS;
        meta.stats_key = { (bit<32>) label, 1 };
    }

    action pop() {
        meta.stats_key = { (bit<32>) hdr.mpls.label, 0 };
        hdr.mpls.setInvalid();
        hdr.ethernet.ether_type = ETHERTYPE_IPV4;
    }

    action refuse() {
        mark_to_drop();
    }

    table push_label {
        key = { hdr.ipv4.dst : lpm; }
        actions = { push; NoAction; }
        default_action = NoAction();
    }

    table pop_label {
        key = { hdr.mpls.label : exact; }
        actions = { pop; refuse; }
        default_action = refuse();
    }

    apply {
        meta.stats_key = { 0, 0 };
        if (hdr.mpls.isValid()) {
            if (!hdr.ipv4.isValid()) {
                mark_to_drop();     // only IPv4 is carried
                return;
            }
            pop_label.apply();
        } else if (hdr.ipv4.isValid()) {
            push_label.apply();
        }
        // Label 0 marks "nothing pushed or popped" (the reserved IPv4
        // explicit-null label is never handed out by the control plane).
        if (meta.stats_key.label != 0) {
            bit<32> n = label_packets.read(meta.stats_key);
            label_packets.write(meta.stats_key, n + 1);
            mark_to_pass();
        }
    }
}

control EdgeDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.mpls);
        pkt.emit(hdr.ipv4);
    }
}

ubpf(EdgeParser(), EdgePipe(), EdgeDeparser()) main;
