// A v1model program for `tests/ctrl_cli.rs`'s action profile test: an
// exact table whose implementation is an action_profile, and an lpm table
// whose implementation is an action_selector.
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

struct metadata_t { }

parser ProfParser(packet_in pkt, out headers_t hdr, inout metadata_t meta,
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

control ProfVerify(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ProfIngress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std) {
    action_selector(HashAlgorithm.crc16, 32w64, 32w8) ecmp_selector;

    action drop() {
        mark_to_drop(std);
    }
    action forward(bit<9> port) {
        std.egress_spec = port;
    }
    action set_nexthop(bit<48> next_mac, bit<9> port) {
        hdr.ethernet.dst_addr = next_mac;
        std.egress_spec = port;
    }

    table port_fwd {
        key = {
            hdr.ethernet.dst_addr : exact;
        }
        actions = {
            forward;
            drop;
        }
        implementation = action_profile(32w16);
        size = 64;
    }

    table ecmp {
        key = {
            hdr.ipv4.dst_addr  : lpm;
            hdr.ipv4.src_addr  : selector;
            hdr.ipv4.protocol  : selector;
        }
        actions = {
            set_nexthop;
            drop;
        }
        implementation = ecmp_selector;
        size = 64;
    }

    apply {
        if (hdr.ipv4.isValid()) {
            ecmp.apply();
        } else {
            port_fwd.apply();
        }
    }
}

control ProfEgress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std) {
    apply { }
}

control ProfCompute(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ProfDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(ProfParser(), ProfVerify(), ProfIngress(), ProfEgress(),
         ProfCompute(), ProfDeparser()) main;
