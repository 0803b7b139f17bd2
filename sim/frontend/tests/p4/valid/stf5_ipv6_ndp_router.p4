// IPv6 router with a Neighbor Discovery responder (RFC 4861).
// - A Neighbor Solicitation (ICMPv6 135, hop limit 255) for one of the
//   router's addresses (my_addresses, keyed by the target) is answered on
//   the arrival port with a Neighbor Advertisement (136) with the Router,
//   Solicited and Override flags set and a Target Link-Layer Address
//   option carrying the router MAC: IPv6 source = the target, destination
//   = the solicitation's source, hop limit 255. The ICMPv6 checksum is
//   recomputed over the IPv6 pseudo-header and the whole message.
//   Solicitations with a hop limit other than 255, for other targets, or
//   without a source link-layer address option are dropped.
// - Other IPv6 packets are routed by longest prefix with the hop limit
//   decremented (dropped at <= 1); non-IPv6 frames are dropped.
#include <core.p4>
#include <v1model.p4>

const bit<8> NH_ICMPV6 = 58;
const bit<8> ND_NS = 135;
const bit<8> ND_NA = 136;

header ethernet_h {
    bit<48> dst;
    bit<48> src;
    bit<16> ether_type;
}

header ipv6_h {
    bit<4>   version;
    bit<8>   traffic_class;
    bit<20>  flow_label;
    bit<16>  payload_len;
    bit<8>   next_hdr;
    bit<8>   hop_limit;
    bit<128> src;
    bit<128> dst;
}

header icmpv6_h {
    bit<8>  type;
    bit<8>  code;
    bit<16> checksum;
}

header nd_h {
    bit<1>   router;
    bit<1>   solicited;
    bit<1>   override;
    bit<29>  reserved;
    bit<128> target;
}

header nd_lladdr_opt_h {
    bit<8>  type;
    bit<8>  len;
    bit<48> addr;
}

struct headers_t {
    ethernet_h      eth;
    ipv6_h          ipv6;
    icmpv6_h        icmpv6;
    nd_h            nd;
    nd_lladdr_opt_h opt;
}

struct meta_t {
    bit<1> advertise;
}

parser NdParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.ether_type) {
            0x86DD:  parse_ipv6;
            default: accept;
        }
    }
    state parse_ipv6 {
        pkt.extract(hdr.ipv6);
        transition select(hdr.ipv6.next_hdr) {
            NH_ICMPV6: parse_icmpv6;
            default:   accept;
        }
    }
    state parse_icmpv6 {
        pkt.extract(hdr.icmpv6);
        transition select(hdr.icmpv6.type) {
            ND_NS:   parse_nd;
            default: accept;
        }
    }
    state parse_nd {
        pkt.extract(hdr.nd);
        transition select(pkt.lookahead<bit<16>>()) {
            0x0101:  parse_opt;     // source link-layer address, 8 bytes
            default: accept;
        }
    }
    state parse_opt {
        pkt.extract(hdr.opt);
        transition accept;
    }
}

control NdVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control NdIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop(sm);
    }

    action advertise(bit<48> router_mac) {
        hdr.eth.dst = hdr.eth.src;
        hdr.eth.src = router_mac;
        hdr.ipv6.dst = hdr.ipv6.src;
        hdr.ipv6.src = hdr.nd.target;
        hdr.ipv6.hop_limit = 255;
        hdr.icmpv6.type = ND_NA;
        hdr.nd.router = 1;
        hdr.nd.solicited = 1;
        hdr.nd.override = 1;
        hdr.nd.reserved = 0;
        hdr.opt.type = 2;       // target link-layer address
        hdr.opt.addr = router_mac;
        sm.egress_spec = sm.ingress_port;
        meta.advertise = 1;
    }
    table my_addresses {
        key = { hdr.nd.target : exact; }
        actions = { advertise; drop; }
        default_action = drop();
    }

    action route(bit<9> port, bit<48> dmac, bit<48> smac) {
        sm.egress_spec = port;
        hdr.eth.dst = dmac;
        hdr.eth.src = smac;
        hdr.ipv6.hop_limit = hdr.ipv6.hop_limit - 1;
    }
    table ipv6_lpm {
        key = { hdr.ipv6.dst : lpm; }
        actions = { route; drop; }
        default_action = drop();
    }

    apply {
        if (!hdr.ipv6.isValid()) {
            drop();
        } else if (hdr.nd.isValid()) {
            if (hdr.ipv6.hop_limit == 255 && hdr.icmpv6.code == 0 && hdr.opt.isValid()) {
                my_addresses.apply();
            } else {
                drop();
            }
        } else if (hdr.ipv6.hop_limit <= 1) {
            drop();
        } else {
            ipv6_lpm.apply();
        }
    }
}

control NdEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control NdCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(meta.advertise == 1,
            { hdr.ipv6.src, hdr.ipv6.dst, 16w0, hdr.ipv6.payload_len,
              24w0, hdr.ipv6.next_hdr,
              hdr.icmpv6.type, hdr.icmpv6.code,
              hdr.nd.router, hdr.nd.solicited, hdr.nd.override, hdr.nd.reserved,
              hdr.nd.target, hdr.opt.type, hdr.opt.len, hdr.opt.addr },
            hdr.icmpv6.checksum, HashAlgorithm.csum16);
    }
}

control NdDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv6);
        pkt.emit(hdr.icmpv6);
        pkt.emit(hdr.nd);
        pkt.emit(hdr.opt);
    }
}

V1Switch(NdParser(), NdVerify(), NdIngress(), NdEgress(), NdCompute(),
         NdDeparser()) main;
