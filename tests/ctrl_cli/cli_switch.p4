// A v1model program for `tests/ctrl_cli.rs`: an exact table, an lpm
// table, a ternary + range table (priorities), an indexed counter, a
// register, a meter, a direct counter, clone and multicast.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header ipv4_t {
    bit<8>  version_ihl;
    bit<8>  diffserv;
    bit<16> total_len;
    bit<16> identification;
    bit<16> flags_frag;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdr_checksum;
    bit<32> src_addr;
    bit<32> dst_addr;
}

struct headers_t {
    ethernet_t ethernet;
    ipv4_t     ipv4;
}

struct metadata_t {
    bit<2> color;
}

parser CliParser(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t std) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800: ipv4;
            default: accept;
        }
    }
    state ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control CliVerify(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control CliIngress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std) {
    counter(64, CounterType.packets_and_bytes) port_packets;
    register<bit<32>>(8) last_len;
    meter(4, MeterType.bytes) port_rate;
    direct_counter(CounterType.packets_and_bytes) dmac_hits;

    action drop() {
        mark_to_drop(std);
    }
    action forward(bit<9> port) {
        std.egress_spec = port;
    }
    action forward_counted(bit<9> port) {
        dmac_hits.count();
        std.egress_spec = port;
    }
    action flood(bit<16> group) {
        std.mcast_grp = group;
    }
    action mirror(bit<32> session) {
        clone(CloneType.I2E, session);
    }
    action set_next_hop(bit<48> next_mac, bit<9> port) {
        hdr.ethernet.dst_addr = next_mac;
        std.egress_spec = port;
    }

    table dmac {
        key = { hdr.ethernet.dst_addr : exact; }
        actions = { forward_counted; flood; drop; NoAction; }
        counters = dmac_hits;
        default_action = NoAction();
        size = 64;
    }

    table routes {
        key = { hdr.ipv4.dst_addr : lpm; }
        actions = { set_next_hop; drop; NoAction; }
        default_action = drop();
        size = 64;
    }

    table filter {
        key = {
            hdr.ipv4.src_addr : ternary;
            hdr.ipv4.protocol : ternary;
            std.ingress_port  : range;
        }
        actions = { forward; mirror; drop; NoAction; }
        default_action = NoAction();
        size = 64;
    }

    apply {
        port_packets.count((bit<32>)std.ingress_port);
        last_len.write((bit<32>)0, (bit<32>)std.packet_length);
        port_rate.execute_meter((bit<32>)0, meta.color);
        dmac.apply();
        if (hdr.ipv4.isValid()) {
            routes.apply();
            filter.apply();
        }
    }
}

control CliEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std) {
    apply { }
}

control CliCompute(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control CliDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(CliParser(), CliVerify(), CliIngress(), CliEgress(), CliCompute(),
         CliDeparser()) main;
