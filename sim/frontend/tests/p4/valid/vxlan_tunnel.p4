// Realistic v1model program: VXLAN-style tunnel endpoint. Decapsulates
// packets arriving on UDP port 4789 and encapsulates packets selected by a
// table, building the outer headers with struct-valued expressions.
#include <core.p4>
#include <v1model.p4>

const bit<16> UDP_PORT_VXLAN = 4789;
const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<8>  IP_PROTO_UDP   = 17;

header eth_h {
    bit<48> dst;
    bit<48> src;
    bit<16> ether_type;
}

header ipv4_h {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  dscp_ecn;
    bit<16> length;
    bit<16> id;
    bit<3>  flags;
    bit<13> frag_offset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> checksum;
    bit<32> src;
    bit<32> dst;
}

header udp_h {
    bit<16> src_port;
    bit<16> dst_port;
    bit<16> length;
    bit<16> checksum;
}

header vxlan_h {
    bit<8>  flags;
    bit<24> reserved;
    bit<24> vni;
    bit<8>  reserved2;
}

struct tunnel_headers_t {
    eth_h   outer_eth;
    ipv4_h  outer_ipv4;
    udp_h   outer_udp;
    vxlan_h vxlan;
    eth_h   inner_eth;
    ipv4_h  inner_ipv4;
}

struct tunnel_meta_t {
    bit<24> vni;
}

parser TunnelParser(packet_in pkt, out tunnel_headers_t hdr,
                    inout tunnel_meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.outer_eth);
        transition select(hdr.outer_eth.ether_type) {
            ETHERTYPE_IPV4 : parse_outer_ipv4;
            default        : accept;
        }
    }
    state parse_outer_ipv4 {
        pkt.extract(hdr.outer_ipv4);
        transition select(hdr.outer_ipv4.protocol) {
            IP_PROTO_UDP : parse_outer_udp;
            default      : accept;
        }
    }
    state parse_outer_udp {
        pkt.extract(hdr.outer_udp);
        transition select(hdr.outer_udp.dst_port) {
            UDP_PORT_VXLAN : parse_vxlan;
            default        : accept;
        }
    }
    state parse_vxlan {
        pkt.extract(hdr.vxlan);
        meta.vni = hdr.vxlan.vni;
        transition parse_inner_eth;
    }
    state parse_inner_eth {
        pkt.extract(hdr.inner_eth);
        transition select(hdr.inner_eth.ether_type) {
            ETHERTYPE_IPV4 : parse_inner_ipv4;
            default        : accept;
        }
    }
    state parse_inner_ipv4 {
        pkt.extract(hdr.inner_ipv4);
        transition accept;
    }
}

control TunnelVerify(inout tunnel_headers_t hdr, inout tunnel_meta_t meta) {
    apply { }
}

control TunnelIngress(inout tunnel_headers_t hdr, inout tunnel_meta_t meta,
                      inout standard_metadata_t sm) {

    action drop() {
        mark_to_drop(sm);
    }

    // Strip the outer Ethernet/IPv4/UDP/VXLAN headers.
    action decap(bit<9> port) {
        hdr.outer_eth = hdr.inner_eth;
        hdr.outer_ipv4 = hdr.inner_ipv4;
        hdr.outer_udp.setInvalid();
        hdr.vxlan.setInvalid();
        hdr.inner_eth.setInvalid();
        hdr.inner_ipv4.setInvalid();
        sm.egress_spec = port;
    }

    table vxlan_term {
        key = {
            hdr.outer_ipv4.dst : exact;
            hdr.vxlan.vni      : exact;
        }
        actions = { decap; drop; }
        default_action = drop();
    }

    // Wrap the current frame in fresh outer headers.
    action encap(bit<32> local_ip, bit<32> remote_ip, bit<24> vni,
                 bit<48> next_hop_mac, bit<48> my_mac, bit<9> port) {
        hdr.inner_eth = hdr.outer_eth;
        hdr.inner_ipv4 = hdr.outer_ipv4;

        hdr.outer_eth = { dst = next_hop_mac, src = my_mac, ether_type = ETHERTYPE_IPV4 };

        hdr.outer_ipv4.setValid();
        hdr.outer_ipv4.version = 4;
        hdr.outer_ipv4.ihl = 5;
        hdr.outer_ipv4.dscp_ecn = 0;
        hdr.outer_ipv4.length = hdr.inner_ipv4.length + 16w50;
        hdr.outer_ipv4.id = 0;
        hdr.outer_ipv4.flags = 3w0b010;
        hdr.outer_ipv4.frag_offset = 0;
        hdr.outer_ipv4.ttl = 64;
        hdr.outer_ipv4.protocol = IP_PROTO_UDP;
        hdr.outer_ipv4.checksum = 0;
        hdr.outer_ipv4.src = local_ip;
        hdr.outer_ipv4.dst = remote_ip;

        hdr.outer_udp = {
            src_port = 16w49152,
            dst_port = UDP_PORT_VXLAN,
            length   = hdr.inner_ipv4.length + 16w30,
            checksum = 0
        };

        hdr.vxlan = { flags = 8w0x08, reserved = 0, vni = vni, reserved2 = 0 };
        sm.egress_spec = port;
    }

    table vxlan_encap {
        key = {
            hdr.outer_eth.dst : exact;
        }
        actions = { encap; NoAction; }
        default_action = NoAction();
    }

    apply {
        if (hdr.vxlan.isValid()) {
            vxlan_term.apply();
        } else if (hdr.outer_ipv4.isValid()) {
            vxlan_encap.apply();
        } else {
            drop();
        }
    }
}

control TunnelEgress(inout tunnel_headers_t hdr, inout tunnel_meta_t meta,
                     inout standard_metadata_t sm) {
    apply { }
}

control TunnelCompute(inout tunnel_headers_t hdr, inout tunnel_meta_t meta) {
    apply {
        update_checksum(hdr.outer_ipv4.isValid(),
            { hdr.outer_ipv4.version, hdr.outer_ipv4.ihl, hdr.outer_ipv4.dscp_ecn,
              hdr.outer_ipv4.length, hdr.outer_ipv4.id, hdr.outer_ipv4.flags,
              hdr.outer_ipv4.frag_offset, hdr.outer_ipv4.ttl,
              hdr.outer_ipv4.protocol, hdr.outer_ipv4.src, hdr.outer_ipv4.dst },
            hdr.outer_ipv4.checksum,
            HashAlgorithm.csum16);
    }
}

control TunnelDeparser(packet_out pkt, in tunnel_headers_t hdr) {
    apply {
        pkt.emit(hdr.outer_eth);
        pkt.emit(hdr.outer_ipv4);
        pkt.emit(hdr.outer_udp);
        pkt.emit(hdr.vxlan);
        pkt.emit(hdr.inner_eth);
        pkt.emit(hdr.inner_ipv4);
    }
}

V1Switch(TunnelParser(), TunnelVerify(), TunnelIngress(), TunnelEgress(),
         TunnelCompute(), TunnelDeparser()) main;
