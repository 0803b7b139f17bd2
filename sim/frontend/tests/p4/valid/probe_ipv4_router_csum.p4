// Probe (a classic v1model IPv4 router): verify_checksum over the IPv4
// header in the verify control (a mismatch sets checksum_error, which
// ingress uses to drop); LPM routing set from STF with value/len; TTL
// decrement; MAC rewrite; update_checksum recomputes the header checksum
// after egress (csum16 over the fields in order).
#include <core.p4>
#include <v1model.p4>

typedef bit<48> mac_t;
typedef bit<32> ip4_t;
const bit<16> ETH_IPV4 = 0x0800;
header eth_t { mac_t dst; mac_t src; bit<16> etype; }
header ipv4_t {
    bit<4> version; bit<4> ihl; bit<8> tos; bit<16> total_len;
    bit<16> id; bit<3> flags; bit<13> frag;
    bit<8> ttl; bit<8> proto; bit<16> csum; ip4_t src; ip4_t dst;
}
struct headers_t { eth_t eth; ipv4_t ipv4; }
struct meta_t { }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            ETH_IPV4: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 { pkt.extract(hdr.ipv4); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.tos, hdr.ipv4.total_len,
              hdr.ipv4.id, hdr.ipv4.flags, hdr.ipv4.frag, hdr.ipv4.ttl,
              hdr.ipv4.proto, hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.csum, HashAlgorithm.csum16);
    }
}

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    action drop() { mark_to_drop(sm); }
    action route(bit<9> port, mac_t nh) {
        sm.egress_spec = port;
        hdr.eth.src = hdr.eth.dst;
        hdr.eth.dst = nh;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }
    table routes {
        key = { hdr.ipv4.dst : lpm; }
        actions = { route; drop; }
        default_action = drop();
    }
    apply {
        if (!hdr.ipv4.isValid() || sm.checksum_error == 1 || hdr.ipv4.ttl <= 1) {
            drop();
            return;
        }
        routes.apply();
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    apply { }
}

control PCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.tos, hdr.ipv4.total_len,
              hdr.ipv4.id, hdr.ipv4.flags, hdr.ipv4.frag, hdr.ipv4.ttl,
              hdr.ipv4.proto, hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.csum, HashAlgorithm.csum16);
    }
}

control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
