// eBPF filter (ebpf_model.p4): admit VXLAN traffic for known tenants only.
// The parser handles up to two MPLS labels before IPv4 -- unrolled into
// separate states, because the eBPF verifier refuses parser loops -- and
// peeks at the IP version after the bottom label with lookahead.  The
// filter uses two extern functions that the program declares itself and
// that are written in C and linked in (p4c-ebpf --emit-externs): one checks
// the IPv4 header checksum, one maps a VNI to a tenant slot.  A hash-map
// table keyed on the VNI holds per-tenant policy, with an action parameter.
#include <core.p4>
#include <ebpf_model.p4>

header ethernet_h { bit<48> dst; bit<48> src; bit<16> ether_type; }
header mpls_h     { bit<20> label; bit<3> tc; bit<1> bos; bit<8> ttl; }
header ipv4_h {
    bit<4>  version;  bit<4>  ihl;      bit<8>  tos;     bit<16> total_len;
    bit<16> ident;    bit<3>  flags;    bit<13> frag_offset;
    bit<8>  ttl;      bit<8>  protocol; bit<16> checksum;
    bit<32> src;      bit<32> dst;
}
header udp_h   { bit<16> src_port; bit<16> dst_port; bit<16> len; bit<16> checksum; }
header vxlan_h { bit<8> flags; bit<24> rsvd; bit<24> vni; bit<8> rsvd2; }

struct headers_t {
    ethernet_h ethernet;
    mpls_h[2]  mpls;
    ipv4_h     ipv4;
    udp_h      udp;
    vxlan_h    vxlan;
}

// Provided in C.  `in` arguments are passed by value, as const.
extern bool ipv4_checksum_ok(in ipv4_h ip);
extern bit<32> tenant_slot(in bit<24> vni);

const bit<16> VXLAN_PORT = 4789;

parser TunnelParser(packet_in pkt, out headers_t hdr) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x8847:  parse_mpls0;
            0x0800:  parse_ipv4;
            default: reject;
        }
    }
    state parse_mpls0 {
        pkt.extract(hdr.mpls.next);
        transition select(hdr.mpls[0].bos) {
            1: after_mpls;
            0: parse_mpls1;
        }
    }
    state parse_mpls1 {
        pkt.extract(hdr.mpls.next);
        transition select(hdr.mpls[1].bos) {
            1: after_mpls;
            default: reject;    // deeper label stacks are not handled
        }
    }
    state after_mpls {
        transition select(pkt.lookahead<bit<4>>()) {
            4: parse_ipv4;
            default: reject;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            17: parse_udp;
            default: accept;
        }
    }
    state parse_udp {
        pkt.extract(hdr.udp);
        transition select(hdr.udp.dst_port) {
            VXLAN_PORT: parse_vxlan;
            default:    accept;
        }
    }
    state parse_vxlan {
        pkt.extract(hdr.vxlan);
        transition accept;
    }
}

control TenantFilter(inout headers_t hdr, out bool accept) {
    CounterArray(1024, true) tenant_bytes;
    bit<32> max_len = 0;

    action admit(bit<16> mtu) {
        max_len = (bit<32>) mtu;
    }
    action refuse() {
        max_len = 0;
    }

    table tenant_policy {
        key = { hdr.vxlan.vni : exact; }
        actions = { admit; refuse; }
        default_action = refuse();
        implementation = hash_table(1024);
    }

    apply {
        accept = false;
        if (!hdr.ipv4.isValid() || !ipv4_checksum_ok(hdr.ipv4)) {
            return;
        }
        if (!hdr.vxlan.isValid()) {
            // Plain IP, not tunnelled: only from inside the MPLS core.
            accept = hdr.mpls[0].isValid();
            return;
        }
        tenant_policy.apply();
        bit<32> len = (bit<32>) hdr.ipv4.total_len;
        if (len <= max_len) {
            tenant_bytes.add(tenant_slot(hdr.vxlan.vni), len);
            accept = true;
        }
    }
}

ebpfFilter(TunnelParser(), TenantFilter()) main;
