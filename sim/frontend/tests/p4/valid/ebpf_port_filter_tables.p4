// eBPF filter (ebpf_model.p4): a table-driven L4 firewall for a TC hook.
// Three tables, each stored in the kind of eBPF map its property names:
//   - src_prefix:  lpm on the source address (LPM-trie map, sized through
//                  array_table) marks trusted networks;
//   - port_policy: exact on (protocol, destination port), a hash map, says
//                  whether a port is open, with const entries for the
//                  well-known services;
//   - vlan_allow:  exact on the VLAN id, an array map.
// The table results are combined through hit/miss and switch on the
// action run, and the port verdicts counted.  eBPF offers no ternary match, so none is used.
#include <core.p4>
#include <ebpf_model.p4>

header ethernet_h {
    bit<48> dst;
    bit<48> src;
    bit<16> ether_type;
}

header vlan_h {
    bit<3>  pcp;
    bit<1>  dei;
    bit<12> vid;
    bit<16> ether_type;
}

header ipv4_h {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  tos;
    bit<16> total_len;
    bit<16> ident;
    bit<3>  flags;
    bit<13> frag_offset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> checksum;
    bit<32> src;
    bit<32> dst;
}

// The first four bytes of TCP and UDP: both start with the two ports.
header l4_ports_h {
    bit<16> src_port;
    bit<16> dst_port;
}

struct headers_t {
    ethernet_h ethernet;
    vlan_h     vlan;
    ipv4_h     ipv4;
    l4_ports_h ports;
}

parser PortParser(packet_in pkt, out headers_t hdr) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x8100: parse_vlan;
            0x0800: parse_ipv4;
            default: accept;
        }
    }
    state parse_vlan {
        pkt.extract(hdr.vlan);
        transition select(hdr.vlan.ether_type) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.ihl, hdr.ipv4.protocol) {
            (5, 6):  parse_ports;   // TCP
            (5, 17): parse_ports;   // UDP
            default: accept;
        }
    }
    state parse_ports {
        pkt.extract(hdr.ports);
        transition accept;
    }
}

control PortFilter(inout headers_t hdr, out bool accept) {
    CounterArray(2, false) verdicts;   // [0] port allowed, [1] port denied

    action allow() { accept = true; }
    action deny()  { accept = false; }

    table src_prefix {
        key = { hdr.ipv4.src : lpm; }
        actions = { allow; NoAction; }
        default_action = NoAction();
        implementation = array_table(1024);
    }

    table port_policy {
        key = {
            hdr.ipv4.protocol  : exact;
            hdr.ports.dst_port : exact;
        }
        actions = { allow; deny; }
        const entries = {
            (6, 22)  : allow();   // ssh
            (6, 80)  : allow();   // http
            (6, 443) : allow();   // https
            (17, 53) : allow();   // dns
            (6, 23)  : deny();    // telnet, explicitly closed
        }
        default_action = deny();
        implementation = hash_table(4096);
    }

    table vlan_allow {
        key = { hdr.vlan.vid : exact; }
        actions = { NoAction; }
        size = 4096;
        implementation = array_table(4096);
    }

    apply {
        accept = false;
        if (!hdr.ipv4.isValid()) {
            // Not IP: let ARP through, drop the rest.
            accept = hdr.ethernet.ether_type == 0x0806;
            return;
        }
        if (hdr.vlan.isValid() && !vlan_allow.apply().hit) {
            return;
        }
        if (src_prefix.apply().hit) {
            return;   // trusted source: `allow` has already set accept
        }
        if (hdr.ports.isValid()) {
            switch (port_policy.apply().action_run) {
                allow: { verdicts.increment(0); }
                deny:  { verdicts.increment(1); }
            }
        } else if (hdr.ipv4.protocol == 1) {
            accept = true;   // ICMP
        }
    }
}

ebpfFilter(PortParser(), PortFilter()) main;
