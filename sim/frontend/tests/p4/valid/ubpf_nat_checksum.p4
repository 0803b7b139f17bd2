// uBPF program (ubpf_model.p4, default version): source NAT (NAPT) for
// TCP and UDP between an inside port and an outside port of the switch.
// Outbound packets get their source address and port rewritten from the
// `snat` table; inbound packets get their destination rewritten from
// `dnat`.  Nothing is recomputed from scratch: the IPv4 header checksum and
// the TCP/UDP checksum (whose pseudo-header covers the addresses) are
// patched incrementally with csum_replace4 for the 32-bit address and
// csum_replace2 for the 16-bit port.  A UDP checksum of 0 means "none" and
// is left alone.  Every translated packet is also cloned to a tap port.
#include <core.p4>
#include <ubpf_model.p4>

const bit<32> INSIDE_PORT  = 1;
const bit<32> OUTSIDE_PORT = 2;
const bit<32> TAP_PORT     = 9;

header ethernet_h { bit<48> dst; bit<48> src; bit<16> ether_type; }
header ipv4_h {
    bit<4>  version;  bit<4>  ihl;      bit<8>  tos;     bit<16> total_len;
    bit<16> ident;    bit<3>  flags;    bit<13> frag_offset;
    bit<8>  ttl;      bit<8>  protocol; bit<16> checksum;
    bit<32> src;      bit<32> dst;
}
header tcp_h {
    bit<16> src_port; bit<16> dst_port; bit<32> seq; bit<32> ack;
    bit<4>  data_offset; bit<4> res; bit<8> flags;
    bit<16> window;   bit<16> checksum; bit<16> urgent;
}
header udp_h { bit<16> src_port; bit<16> dst_port; bit<16> len; bit<16> checksum; }

struct headers_t { ethernet_h ethernet; ipv4_h ipv4; tcp_h tcp; udp_h udp; }

struct meta_t { bit<16> l4_src; bit<16> l4_dst; }   // ports of TCP or UDP

parser NatParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata std) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800:  parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.ihl, hdr.ipv4.protocol) {
            (5, 6):  parse_tcp;
            (5, 17): parse_udp;
            default: accept;
        }
    }
    state parse_tcp {
        pkt.extract(hdr.tcp);
        meta.l4_src = hdr.tcp.src_port;
        meta.l4_dst = hdr.tcp.dst_port;
        transition accept;
    }
    state parse_udp {
        pkt.extract(hdr.udp);
        meta.l4_src = hdr.udp.src_port;
        meta.l4_dst = hdr.udp.dst_port;
        transition accept;
    }
}

control NatPipe(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata std) {
    // Patch the L4 checksum for an address change and a port change.
    action fix_l4(bit<32> old_addr, bit<32> new_addr, bit<16> old_port, bit<16> new_port) {
        if (hdr.tcp.isValid()) {
            hdr.tcp.checksum = csum_replace4(hdr.tcp.checksum, old_addr, new_addr);
            hdr.tcp.checksum = csum_replace2(hdr.tcp.checksum, old_port, new_port);
        } else if (hdr.udp.isValid() && hdr.udp.checksum != 0) {
            hdr.udp.checksum = csum_replace4(hdr.udp.checksum, old_addr, new_addr);
            hdr.udp.checksum = csum_replace2(hdr.udp.checksum, old_port, new_port);
        }
    }

    action translate_src(bit<32> public_addr, bit<16> public_port) {
        fix_l4(hdr.ipv4.src, public_addr, meta.l4_src, public_port);
        hdr.ipv4.checksum = csum_replace4(hdr.ipv4.checksum, hdr.ipv4.src, public_addr);
        hdr.ipv4.src = public_addr;
        if (hdr.tcp.isValid()) { hdr.tcp.src_port = public_port; }
        else                   { hdr.udp.src_port = public_port; }
        std.output_port = OUTSIDE_PORT;
        std.output_action = ubpf_action.REDIRECT;
    }

    action translate_dst(bit<32> private_addr, bit<16> private_port) {
        fix_l4(hdr.ipv4.dst, private_addr, meta.l4_dst, private_port);
        hdr.ipv4.checksum = csum_replace4(hdr.ipv4.checksum, hdr.ipv4.dst, private_addr);
        hdr.ipv4.dst = private_addr;
        if (hdr.tcp.isValid()) { hdr.tcp.dst_port = private_port; }
        else                   { hdr.udp.dst_port = private_port; }
        std.output_port = INSIDE_PORT;
        std.output_action = ubpf_action.REDIRECT;
    }

    action no_mapping() {
        std.output_action = ubpf_action.DROP;
    }

    table snat {
        key = {
            hdr.ipv4.src     : exact;
            meta.l4_src      : exact;
            hdr.ipv4.protocol: exact;
        }
        actions = { translate_src; no_mapping; }
        default_action = no_mapping();
    }

    table dnat {
        key = {
            hdr.ipv4.dst     : exact;
            meta.l4_dst      : exact;
            hdr.ipv4.protocol: exact;
        }
        actions = { translate_dst; no_mapping; }
        default_action = no_mapping();
    }

    apply {
        if (!hdr.tcp.isValid() && !hdr.udp.isValid()) {
            std.output_action = ubpf_action.PASS;   // not for NAT
            return;
        }
        if (std.input_port == INSIDE_PORT) {
            snat.apply();
        } else if (std.input_port == OUTSIDE_PORT) {
            dnat.apply();
        } else {
            mark_to_drop();
            return;
        }
        if (std.output_action == ubpf_action.REDIRECT) {
            std.clone = true;             // copy every translated packet
            std.clone_port = TAP_PORT;    // to the tap
        }
    }
}

control NatDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr);   // members in order; invalid headers are skipped
    }
}

ubpf(NatParser(), NatPipe(), NatDeparser()) main;
