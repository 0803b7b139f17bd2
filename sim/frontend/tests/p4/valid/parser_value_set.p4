// Realistic v1model program: parser value sets. The control plane decides at
// run time which EtherTypes carry a custom shim header and which
// (protocol, port) pairs are tunnels, via `value_set` labels in `select`.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header shim_t {
    bit<8>  kind;
    bit<8>  flags;
    bit<16> next_etype;
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
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

header udp_t {
    bit<16> sport;
    bit<16> dport;
    bit<16> len;
    bit<16> csum;
}

header tunnel_t {
    bit<32> tunnel_id;
}

// Key type of the tunnel value set: one field per select expression.
struct tunnel_key_t {
    bit<8>  proto;
    @match(ternary)
    bit<16> dport;
}

struct headers_t {
    ethernet_t eth;
    shim_t     shim;
    ipv4_t     ipv4;
    udp_t      udp;
    tunnel_t   tunnel;
}

struct meta_t {
    bool is_tunnel;
}

parser VsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    value_set<bit<16>>(4) shim_ethertypes;
    value_set<tunnel_key_t>(8) tunnel_ports;

    state start {
        meta.is_tunnel = false;
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            shim_ethertypes : parse_shim;
            0x0800          : parse_ipv4;
            default         : accept;
        }
    }

    state parse_shim {
        pkt.extract(hdr.shim);
        transition select(hdr.shim.next_etype) {
            0x0800  : parse_ipv4;
            default : accept;
        }
    }

    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.proto) {
            17      : parse_udp;
            default : accept;
        }
    }

    state parse_udp {
        pkt.extract(hdr.udp);
        transition select(hdr.ipv4.proto, hdr.udp.dport) {
            tunnel_ports : parse_tunnel;
            default      : accept;
        }
    }

    state parse_tunnel {
        pkt.extract(hdr.tunnel);
        meta.is_tunnel = true;
        transition accept;
    }
}

control VsVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control VsIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop(sm);
    }

    action to_port(bit<9> port) {
        sm.egress_spec = port;
    }

    table tunnel_fwd {
        key = { hdr.tunnel.tunnel_id : exact; }
        actions = { to_port; drop; }
        default_action = drop();
    }

    table shim_fwd {
        key = {
            hdr.shim.kind  : exact;
            hdr.shim.flags : ternary;
        }
        actions = { to_port; drop; }
        default_action = drop();
    }

    table ip_fwd {
        key = { hdr.ipv4.dst : lpm; }
        actions = { to_port; drop; }
        default_action = drop();
    }

    apply {
        if (meta.is_tunnel) {
            tunnel_fwd.apply();
        } else if (hdr.shim.isValid()) {
            shim_fwd.apply();
        } else if (hdr.ipv4.isValid()) {
            ip_fwd.apply();
        } else {
            drop();
        }
    }
}

control VsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control VsCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control VsDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.shim);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.udp);
        pkt.emit(hdr.tunnel);
    }
}

V1Switch(VsParser(), VsVerify(), VsIngress(), VsEgress(), VsCompute(),
         VsDeparser()) main;
