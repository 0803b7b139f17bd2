// Realistic v1model program: the switch answers ARP requests and ICMP echo
// requests for its own addresses by rewriting the packet in place and
// sending it back out of the ingress port.
#include <core.p4>
#include <v1model.p4>

const bit<16> ETH_ARP  = 0x0806;
const bit<16> ETH_IPV4 = 0x0800;
const bit<16> ARP_OP_REQUEST = 1;
const bit<16> ARP_OP_REPLY   = 2;
const bit<8>  ICMP_ECHO_REQUEST = 8;
const bit<8>  ICMP_ECHO_REPLY   = 0;

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header arp_t {
    bit<16> htype;
    bit<16> ptype;
    bit<8>  hlen;
    bit<8>  plen;
    bit<16> oper;
    bit<48> sha;
    bit<32> spa;
    bit<48> tha;
    bit<32> tpa;
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  tos;
    bit<16> len;
    bit<16> id;
    bit<3>  flags;
    bit<13> frag;
    bit<8>  ttl;
    bit<8>  proto;
    bit<16> csum;
    bit<32> src;
    bit<32> dst;
}

header icmp_t {
    bit<8>  type_;
    bit<8>  code;
    bit<16> csum;
}

struct headers_t {
    ethernet_t eth;
    arp_t      arp;
    ipv4_t     ipv4;
    icmp_t     icmp;
}

struct meta_t { }

parser RespParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            ETH_ARP  : parse_arp;
            ETH_IPV4 : parse_ipv4;
            default  : accept;
        }
    }
    state parse_arp {
        pkt.extract(hdr.arp);
        transition accept;
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.proto, hdr.ipv4.ihl) {
            (1, 5)  : parse_icmp;
            default : accept;
        }
    }
    state parse_icmp {
        pkt.extract(hdr.icmp);
        transition accept;
    }
}

control RespVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RespIngress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop(sm);
    }

    action send_back() {
        sm.egress_spec = sm.ingress_port;
    }

    action arp_reply(bit<48> my_mac) {
        hdr.eth.dst = hdr.arp.sha;
        hdr.eth.src = my_mac;
        hdr.arp.oper = ARP_OP_REPLY;
        hdr.arp.tha = hdr.arp.sha;
        hdr.arp.sha = my_mac;
        bit<32> requested = hdr.arp.tpa;
        hdr.arp.tpa = hdr.arp.spa;
        hdr.arp.spa = requested;
        send_back();
    }

    table arp_table {
        key = {
            hdr.arp.tpa  : exact;
            hdr.arp.oper : exact;
        }
        actions = { arp_reply; drop; }
        default_action = drop();
    }

    action echo_reply() {
        bit<48> mac = hdr.eth.dst;
        hdr.eth.dst = hdr.eth.src;
        hdr.eth.src = mac;
        bit<32> ip = hdr.ipv4.dst;
        hdr.ipv4.dst = hdr.ipv4.src;
        hdr.ipv4.src = ip;
        hdr.ipv4.ttl = 64;
        hdr.icmp.type_ = ICMP_ECHO_REPLY;
        // Incremental checksum update for type 8 -> 0 (RFC 1624 style).
        hdr.icmp.csum = hdr.icmp.csum + 16w0x0800;
        send_back();
    }

    table my_addresses {
        key = { hdr.ipv4.dst : exact; }
        actions = { echo_reply; NoAction; }
        default_action = NoAction();
    }

    apply {
        if (hdr.arp.isValid() && hdr.arp.oper == ARP_OP_REQUEST) {
            arp_table.apply();
        } else if (hdr.icmp.isValid() && hdr.icmp.type_ == ICMP_ECHO_REQUEST) {
            if (my_addresses.apply().hit) {
                log_msg("answered ICMP echo");
            } else {
                drop();
            }
        } else {
            drop();
        }
    }
}

control RespEgress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply { }
}

control RespCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.tos, hdr.ipv4.len,
              hdr.ipv4.id, hdr.ipv4.flags, hdr.ipv4.frag, hdr.ipv4.ttl,
              hdr.ipv4.proto, hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.csum, HashAlgorithm.csum16);
    }
}

control RespDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.arp);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.icmp);
    }
}

V1Switch(RespParser(), RespVerify(), RespIngress(), RespEgress(),
         RespCompute(), RespDeparser()) main;
