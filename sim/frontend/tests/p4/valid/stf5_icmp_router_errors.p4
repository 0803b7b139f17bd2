// IPv4 router that generates its own ICMP messages.
// - Echo requests addressed to one of the router's interface addresses
//   (table local_addr) are answered in place: addresses swapped, type 0,
//   TTL 64, the ICMP checksum recomputed over the header and echo data.
// - A packet that would be forwarded with TTL <= 1 is turned into an ICMP
//   Time Exceeded (type 11, code 0) sent back out the arrival port: a new
//   IPv4 header (from the arrival interface's address to the original
//   source), the ICMP header, then the original IPv4 header and the first
//   8 bytes of its payload, and nothing more (truncate).
// - Everything else is routed by LPM with TTL-1 and MAC rewrite.
// The parser reads the first 8 bytes after the IPv4 header as an ICMP
// header (protocol 1) or as opaque bytes (other protocols).
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

header icmp_h {
    bit<8>  type;
    bit<8>  code;
    bit<16> checksum;
    bit<32> rest;       // identifier/sequence, or unused
}

header l4_head_h {
    bit<64> bytes;
}

struct headers_t {
    ethernet_h eth;
    ipv4_h     ipv4;
    icmp_h     icmp_err;    // a generated error message
    ipv4_h     quoted_ipv4; // the offending packet's header, in an error
    icmp_h     icmp;
    l4_head_h  l4_head;
}

struct meta_t {
    bit<32> iface_addr;
    bit<1>  echo_reply;
}

parser IcmpParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
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
        transition select(hdr.ipv4.ihl, hdr.ipv4.protocol) {
            (5, 1):     parse_icmp;
            (5, _):     parse_l4_head;
            default:    accept;
        }
    }
    state parse_icmp {
        pkt.extract(hdr.icmp);
        transition accept;
    }
    state parse_l4_head {
        pkt.extract(hdr.l4_head);
        transition accept;
    }
}

control IcmpVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control IcmpIngress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop(sm);
    }

    // Send back out of the arrival port with the MACs swapped.
    action bounce() {
        bit<48> mac = hdr.eth.dst;
        hdr.eth.dst = hdr.eth.src;
        hdr.eth.src = mac;
        sm.egress_spec = sm.ingress_port;
    }

    table local_addr {
        key = { hdr.ipv4.dst : exact; }
        actions = { NoAction; }
    }

    action set_iface(bit<32> addr) {
        meta.iface_addr = addr;
    }
    table iface {
        key = { sm.ingress_port : exact; }
        actions = { set_iface; drop; }
        default_action = drop();
    }

    action route(bit<9> port, bit<48> dmac, bit<48> smac) {
        sm.egress_spec = port;
        hdr.eth.dst = dmac;
        hdr.eth.src = smac;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }
    table ipv4_lpm {
        key = { hdr.ipv4.dst : lpm; }
        actions = { route; drop; }
        default_action = drop();
    }

    action echo_reply() {
        bit<32> addr = hdr.ipv4.src;
        hdr.ipv4.src = hdr.ipv4.dst;
        hdr.ipv4.dst = addr;
        hdr.ipv4.ttl = 64;
        hdr.icmp.type = 0;
        meta.echo_reply = 1;
        bounce();
    }

    action time_exceeded() {
        hdr.quoted_ipv4 = hdr.ipv4;
        hdr.icmp_err.setValid();
        hdr.icmp_err.type = 11;
        hdr.icmp_err.code = 0;
        hdr.icmp_err.rest = 0;
        hdr.ipv4.diffserv = 0xc0;       // network control
        hdr.ipv4.total_len = 20 + 8 + 20 + 8;
        hdr.ipv4.identification = 0;
        hdr.ipv4.flags = 0;
        hdr.ipv4.frag_offset = 0;
        hdr.ipv4.ttl = 64;
        hdr.ipv4.protocol = 1;
        hdr.ipv4.dst = hdr.ipv4.src;
        hdr.ipv4.src = meta.iface_addr;
        bounce();
        truncate(14 + 20 + 8 + 20 + 8);
    }

    apply {
        if (!hdr.ipv4.isValid() || hdr.ipv4.ihl != 5) {
            drop();
            return;
        }
        iface.apply();
        if (sm.egress_spec == 511) {
            return;
        }
        if (local_addr.apply().hit) {
            if (hdr.icmp.isValid() && hdr.icmp.type == 8 && hdr.icmp.code == 0) {
                echo_reply();
            } else {
                drop();
            }
        } else if (hdr.ipv4.ttl <= 1) {
            if (hdr.icmp.isValid() && hdr.icmp.type != 0 && hdr.icmp.type != 8) {
                drop();     // never answer an ICMP error with an error
            } else {
                time_exceeded();
            }
        } else {
            ipv4_lpm.apply();
        }
    }
}

control IcmpEgress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply { }
}

control IcmpCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
        update_checksum_with_payload(meta.echo_reply == 1,
            { hdr.icmp.type, hdr.icmp.code, hdr.icmp.rest },
            hdr.icmp.checksum, HashAlgorithm.csum16);
        // The error's checksum covers the quoted header and 8 bytes, which
        // are either an ICMP header or opaque bytes.
        update_checksum(hdr.icmp_err.isValid() && hdr.icmp.isValid(),
            { hdr.icmp_err.type, hdr.icmp_err.code, hdr.icmp_err.rest,
              hdr.quoted_ipv4, hdr.icmp },
            hdr.icmp_err.checksum, HashAlgorithm.csum16);
        update_checksum(hdr.icmp_err.isValid() && hdr.l4_head.isValid(),
            { hdr.icmp_err.type, hdr.icmp_err.code, hdr.icmp_err.rest,
              hdr.quoted_ipv4, hdr.l4_head },
            hdr.icmp_err.checksum, HashAlgorithm.csum16);
    }
}

control IcmpDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.icmp_err);
        pkt.emit(hdr.quoted_ipv4);
        pkt.emit(hdr.icmp);
        pkt.emit(hdr.l4_head);
    }
}

V1Switch(IcmpParser(), IcmpVerify(), IcmpIngress(), IcmpEgress(),
         IcmpCompute(), IcmpDeparser()) main;
