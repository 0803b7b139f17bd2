// GRE tunnel endpoint (RFC 2784 with the RFC 2890 key extension).
// - Encap: a plain IPv4 packet whose destination matches tunnel_encap gets
//   its TTL decremented, then is wrapped in a new outer IPv4 header
//   (protocol 47, TTL 64, DF set, its own identification) and a GRE header
//   carrying the tunnel key; it leaves on the tunnel's port.
// - Decap: a GRE packet addressed to one of our tunnel endpoints with a key
//   we know (tunnel_term, keyed by outer destination and key) loses the
//   outer IPv4 and GRE headers; the inner packet is then routed by
//   inner_route with its TTL decremented. GRE to us with an unknown key,
//   GRE with the checksum bit or a version other than 0, and outer headers
//   with a bad checksum are dropped.
// Both IPv4 headers' checksums are recomputed when valid.
#include <core.p4>
#include <v1model.p4>

const bit<16> ETH_IPV4  = 0x0800;
const bit<8>  PROTO_GRE = 47;

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

header gre_h {
    bit<1>  c;
    bit<1>  r;
    bit<1>  k;
    bit<1>  s;
    bit<9>  reserved0;
    bit<3>  version;
    bit<16> protocol;
}

header gre_key_h {
    bit<32> key;
}

struct headers_t {
    ethernet_h eth;
    ipv4_h     ipv4;      // the outer header of a tunnelled packet
    gre_h      gre;
    gre_key_h  gre_key;
    ipv4_h     inner;
}

struct meta_t {
    bit<32> tunnel_key;
    bit<16> encap_id;
}

parser GreParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.ether_type) {
            ETH_IPV4: parse_ipv4;
            default:  accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            PROTO_GRE: parse_gre;
            default:   accept;
        }
    }
    state parse_gre {
        pkt.extract(hdr.gre);
        transition select(hdr.gre.c, hdr.gre.k, hdr.gre.version) {
            (0, 1, 0): parse_gre_key;
            (0, 0, 0): parse_payload;
            default:   accept;    // not handled: ingress drops it
        }
    }
    state parse_gre_key {
        pkt.extract(hdr.gre_key);
        meta.tunnel_key = hdr.gre_key.key;
        transition parse_payload;
    }
    state parse_payload {
        transition select(hdr.gre.protocol) {
            ETH_IPV4: parse_inner;
            default:  accept;
        }
    }
    state parse_inner {
        pkt.extract(hdr.inner);
        transition accept;
    }
}

control GreVerify(inout headers_t hdr, inout meta_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control GreIngress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop(sm);
    }

    action decap() {
        hdr.ipv4 = hdr.inner;
        hdr.inner.setInvalid();
        hdr.gre.setInvalid();
        hdr.gre_key.setInvalid();
    }

    table tunnel_term {
        key = {
            hdr.ipv4.dst     : exact;
            meta.tunnel_key  : exact;
        }
        actions = { decap; drop; }
        default_action = drop();
    }

    action forward(bit<9> port, bit<48> dmac, bit<48> smac) {
        sm.egress_spec = port;
        hdr.eth.dst = dmac;
        hdr.eth.src = smac;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    table inner_route {
        key = { hdr.ipv4.dst : lpm; }
        actions = { forward; drop; }
        default_action = drop();
    }

    // The original header becomes the inner one; a fresh outer header and
    // a keyed GRE header go in front of it.
    action encap(bit<32> local, bit<32> remote, bit<32> key, bit<16> ident,
                 bit<9> port, bit<48> dmac, bit<48> smac) {
        hdr.inner = hdr.ipv4;
        hdr.inner.ttl = hdr.inner.ttl - 1;
        hdr.gre.setValid();
        hdr.gre = { 0, 0, 1, 0, 0, 0, ETH_IPV4 };
        hdr.gre_key.setValid();
        hdr.gre_key.key = key;
        hdr.ipv4.diffserv = hdr.inner.diffserv;
        hdr.ipv4.total_len = hdr.inner.total_len + 20 + 4 + 4;
        hdr.ipv4.identification = ident;
        hdr.ipv4.flags = 0b010;
        hdr.ipv4.frag_offset = 0;
        hdr.ipv4.ttl = 64;
        hdr.ipv4.protocol = PROTO_GRE;
        hdr.ipv4.src = local;
        hdr.ipv4.dst = remote;
        sm.egress_spec = port;
        hdr.eth.dst = dmac;
        hdr.eth.src = smac;
    }

    table tunnel_encap {
        key = { hdr.ipv4.dst : lpm; }
        actions = { encap; forward; drop; }
        default_action = drop();
    }

    apply {
        if (!hdr.ipv4.isValid() || sm.checksum_error == 1) {
            drop();
            return;
        }
        if (hdr.ipv4.ttl <= 1) {
            drop();
            return;
        }
        if (hdr.ipv4.protocol == PROTO_GRE) {
            if (!hdr.inner.isValid()) {
                drop();            // flags, version or payload we do not handle
                return;
            }
            if (tunnel_term.apply().hit) {
                if (hdr.ipv4.ttl <= 1) {
                    drop();
                } else {
                    inner_route.apply();
                }
            }
        } else {
            tunnel_encap.apply();
        }
    }
}

control GreEgress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply { }
}

control GreCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
        update_checksum(hdr.inner.isValid(),
            { hdr.inner.version, hdr.inner.ihl, hdr.inner.diffserv,
              hdr.inner.total_len, hdr.inner.identification, hdr.inner.flags,
              hdr.inner.frag_offset, hdr.inner.ttl, hdr.inner.protocol,
              hdr.inner.src, hdr.inner.dst },
            hdr.inner.hdr_checksum, HashAlgorithm.csum16);
    }
}

control GreDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.gre);
        pkt.emit(hdr.gre_key);
        pkt.emit(hdr.inner);
    }
}

V1Switch(GreParser(), GreVerify(), GreIngress(), GreEgress(), GreCompute(),
         GreDeparser()) main;
