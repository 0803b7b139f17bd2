// ECMP load balancer without action selectors.
// ecmp_group (LPM on the destination) either names a single next hop or an
// ECMP group with its size; the member index is
//     hash(crc16 over {src, dst, proto, sport, dport}) % size
// written into a 14-bit metadata field (as the classic load-balancing
// exercises do), and ecmp_member (exact on group id and index) gives the
// next hop's MAC and port. TCP and UDP ports feed the hash; other protocols
// hash with ports 0. The TTL is decremented and the IPv4 checksum fixed;
// egress writes the port's source MAC. A packet counter per member is kept.
#include <core.p4>
#include <v1model.p4>

header ethernet_h {
    bit<48> dst;
    bit<48> src;
    bit<16> ether_type;
}

header ipv4_h {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  diffserv;
    bit<16> total_len;
    bit<16> identification;
    bit<3>  flags;
    bit<13> frag_offset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdr_checksum;
    bit<32> src;
    bit<32> dst;
}

header ports_h {
    bit<16> sport;
    bit<16> dport;
}

struct headers_t {
    ethernet_h eth;
    ipv4_h     ipv4;
    ports_h    l4;
}

struct meta_t {
    bit<8>  group_id;
    bit<14> group_size;
    bit<14> member;
    bit<16> sport;
    bit<16> dport;
}

parser EcmpParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.ether_type) {
            0x0800:  parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            6:       parse_ports;   // TCP
            17:      parse_ports;   // UDP
            default: accept;
        }
    }
    state parse_ports {
        pkt.extract(hdr.l4);
        meta.sport = hdr.l4.sport;
        meta.dport = hdr.l4.dport;
        transition accept;
    }
}

control EcmpVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EcmpIngress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    counter(64, CounterType.packets) member_hits;

    action drop() {
        mark_to_drop(sm);
    }

    action set_nhop(bit<48> dmac, bit<9> port) {
        hdr.eth.dst = dmac;
        sm.egress_spec = port;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    action set_group(bit<8> group_id, bit<14> size) {
        meta.group_id = group_id;
        meta.group_size = size;
        hash(meta.member, HashAlgorithm.crc16, (bit<14>)0,
             { hdr.ipv4.src, hdr.ipv4.dst, hdr.ipv4.protocol,
               meta.sport, meta.dport },
             size);
    }

    table ecmp_group {
        key = { hdr.ipv4.dst : lpm; }
        actions = { set_group; set_nhop; drop; }
        default_action = drop();
    }

    table ecmp_member {
        key = {
            meta.group_id : exact;
            meta.member   : exact;
        }
        actions = { set_nhop; drop; }
        default_action = drop();
    }

    apply {
        if (!hdr.ipv4.isValid() || hdr.ipv4.ttl <= 1) {
            drop();
            return;
        }
        switch (ecmp_group.apply().action_run) {
            set_group: {
                ecmp_member.apply();
                member_hits.count((bit<32>)meta.group_id * 16 + (bit<32>)meta.member);
            }
            default: { }
        }
    }
}

control EcmpEgress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    action set_smac(bit<48> mac) {
        hdr.eth.src = mac;
    }
    table smac {
        key = { sm.egress_port : exact; }
        actions = { set_smac; NoAction; }
        default_action = NoAction();
    }
    apply {
        smac.apply();
    }
}

control EcmpCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control EcmpDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.l4);
    }
}

V1Switch(EcmpParser(), EcmpVerify(), EcmpIngress(), EcmpEgress(),
         EcmpCompute(), EcmpDeparser()) main;
