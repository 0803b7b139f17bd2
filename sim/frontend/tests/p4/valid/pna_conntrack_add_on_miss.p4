// Realistic PNA program: a stateful firewall with data-plane connection
// tracking.  The conntrack table has `add_on_miss = true`: when a TCP SYN
// (or any UDP packet) from the host side misses, the table's default action
// calls add_entry() to install the connection itself, with a flow id from
// allocate_flow_id() as the hit action's parameter and an expire-time
// profile chosen by protocol; entries age out (AUTO_DELETE).  The key uses
// SelectByDirection so that both directions of a connection hit the same
// entry.  Packets from the network that match no connection are dropped.
#include <core.p4>
#include <pna.p4>

header ethernet_h { bit<48> dst; bit<48> src; bit<16> ether_type; }
header ipv4_h {
    bit<4>  version;  bit<4>  ihl;      bit<8>  tos;      bit<16> total_len;
    bit<16> ident;    bit<3>  flags;    bit<13> frag_offset;
    bit<8>  ttl;      bit<8>  protocol; bit<16> checksum;
    bit<32> src;      bit<32> dst;
}
header ports_h { bit<16> sport; bit<16> dport; }
header tcp_rest_h {
    bit<32> seq; bit<32> ack; bit<4> data_offset; bit<4> res; bit<8> flags;
    bit<16> window; bit<16> checksum; bit<16> urgent;
}

struct headers_t { ethernet_h ethernet; ipv4_h ipv4; ports_h ports; tcp_rest_h tcp; }
struct meta_t    { FlowId_t flow_id; bool allow_new; ExpireTimeProfileId_t profile; }

// The hit action's parameters, as add_entry() wants them.
struct conn_params_t { FlowId_t flow_id; }

const bit<8> TCP_SYN = 0x02;
const bit<8> TCP_FIN = 0x01;
const bit<8> TCP_RST = 0x04;
const ExpireTimeProfileId_t PROFILE_TCP_OPEN  = (ExpireTimeProfileId_t) 1;
const ExpireTimeProfileId_t PROFILE_TCP_CLOSE = (ExpireTimeProfileId_t) 2;
const ExpireTimeProfileId_t PROFILE_UDP       = (ExpireTimeProfileId_t) 3;

parser CtParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                in pna_main_parser_input_metadata_t istd) {
    state start {
        meta.allow_new = false;
        meta.profile = PROFILE_UDP;
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            6: parse_tcp;
            17: parse_ports;
            default: accept;
        }
    }
    state parse_tcp {
        pkt.extract(hdr.ports);
        pkt.extract(hdr.tcp);
        transition accept;
    }
    state parse_ports {
        pkt.extract(hdr.ports);
        transition accept;
    }
}

control CtPreControl(in headers_t hdr, inout meta_t meta,
                     in pna_pre_input_metadata_t istd,
                     inout pna_pre_output_metadata_t ostd) {
    apply {}
}

control CtControl(inout headers_t hdr, inout meta_t meta,
                  in pna_main_input_metadata_t istd,
                  inout pna_main_output_metadata_t ostd) {
    action conn_hit(FlowId_t flow_id) {
        meta.flow_id = flow_id;
        if (hdr.tcp.isValid() && (hdr.tcp.flags & (TCP_FIN | TCP_RST)) != 0) {
            set_entry_expire_time(PROFILE_TCP_CLOSE);   // closing: age out soon
        } else {
            restart_expire_timer();
        }
    }
    action conn_miss() {
        if (meta.allow_new) {
            meta.flow_id = allocate_flow_id();
            add_entry(action_name = "conn_hit",
                      action_params = (conn_params_t) { flow_id = meta.flow_id },
                      expire_time_profile_id = meta.profile);
        } else {
            drop_packet();
        }
    }
    table conntrack {
        key = {
            SelectByDirection(istd.direction, hdr.ipv4.src, hdr.ipv4.dst) : exact @name("host_addr");
            SelectByDirection(istd.direction, hdr.ipv4.dst, hdr.ipv4.src) : exact @name("peer_addr");
            hdr.ipv4.protocol : exact;
            SelectByDirection(istd.direction, hdr.ports.sport, hdr.ports.dport) : exact @name("host_port");
            SelectByDirection(istd.direction, hdr.ports.dport, hdr.ports.sport) : exact @name("peer_port");
        }
        actions = {
            @tableonly conn_hit;
            @defaultonly conn_miss;
        }
        const default_action = conn_miss;
        add_on_miss = true;
        pna_idle_timeout = PNA_IdleTimeout_t.AUTO_DELETE;
        size = 65536;
    }

    action forward(PortId_t port) { send_to_port(port); }
    table route {
        key = { istd.input_port : exact; }
        actions = { forward; }
        default_action = forward((PortId_t) 0);
    }

    apply {
        if (!hdr.ports.isValid()) {
            drop_packet();
            exit;
        }
        // Only the protected (host) side may open connections.
        if (istd.direction == PNA_Direction_t.HOST_TO_NET) {
            if (hdr.tcp.isValid()) {
                meta.allow_new = (hdr.tcp.flags & TCP_SYN) != 0;
                meta.profile = PROFILE_TCP_OPEN;
            } else {
                meta.allow_new = true;
            }
        }
        route.apply();          // the conntrack miss action may still drop
        conntrack.apply();
    }
}

control CtDeparser(packet_out pkt, in headers_t hdr, in meta_t meta,
                   in pna_main_output_metadata_t ostd) {
    apply {
        pkt.emit(hdr);
    }
}

PNA_NIC(CtParser(), CtPreControl(), CtControl(), CtDeparser()) main;
