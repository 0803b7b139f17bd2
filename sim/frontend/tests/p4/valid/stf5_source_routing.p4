// Strict source routing. The sender writes the whole path into the frame:
// ethertype 0x88B6 is followed by up to 8 two-byte hop entries
// {bos, 6 reserved bits, 9-bit output port}; the entry with bos = 1 is the
// last one and is followed by an IPv4 packet.
// Each switch sends the frame out of the port named by the first entry and
// pops that entry. The switch that pops the bottom-of-stack entry restores
// ethertype 0x0800 and decrements the IPv4 TTL (dropping at TTL <= 1), and
// the IPv4 checksum is recomputed. Ports not listed in usable_ports, routes
// longer than 8 entries and routes with no bos entry (the parser runs out
// of packet) are dropped. Plain IPv4 is forwarded by a small fallback table.
#include <core.p4>
#include <v1model.p4>

const bit<16> ETH_IPV4 = 0x0800;
const bit<16> ETH_SRCROUTE = 0x88B6;

header ethernet_h {
    bit<48> dst;
    bit<48> src;
    bit<16> ether_type;
}

header hop_h {
    bit<1> bos;
    bit<6> reserved;
    bit<9> port;
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

struct headers_t {
    ethernet_h eth;
    hop_h[8]   hops;
    ipv4_h     ipv4;
}

struct meta_t { }

parser SrParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.ether_type) {
            ETH_SRCROUTE: parse_hop;
            ETH_IPV4:     parse_ipv4;
            default:      accept;
        }
    }
    state parse_hop {
        pkt.extract(hdr.hops.next);
        transition select(hdr.hops.last.bos) {
            1:       parse_ipv4;
            default: parse_hop;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control SrVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SrIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    counter(512, CounterType.packets) hops_taken;

    action drop() {
        mark_to_drop(sm);
    }

    table usable_ports {
        key = { hdr.hops[0].port : exact; }
        actions = { NoAction; drop; }
        default_action = drop();
    }

    action next_hop() {
        sm.egress_spec = hdr.hops[0].port;
        hops_taken.count((bit<32>)hdr.hops[0].port);
    }

    action last_hop() {
        hdr.eth.ether_type = ETH_IPV4;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    action fallback_forward(bit<9> port) {
        sm.egress_spec = port;
    }
    table fallback {
        key = { hdr.ipv4.dst : exact; }
        actions = { fallback_forward; drop; }
        default_action = drop();
    }

    apply {
        if (sm.parser_error != error.NoError) {
            drop();
        } else if (hdr.hops[0].isValid()) {
            if (usable_ports.apply().hit) {
                next_hop();
                if (hdr.hops[0].bos == 1) {
                    if (hdr.ipv4.ttl <= 1) {
                        drop();
                    } else {
                        last_hop();
                    }
                }
                hdr.hops.pop_front(1);
            }
        } else if (hdr.ipv4.isValid()) {
            fallback.apply();
        } else {
            drop();
        }
    }
}

control SrEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control SrCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control SrDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.hops);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(SrParser(), SrVerify(), SrIngress(), SrEgress(), SrCompute(),
         SrDeparser()) main;
