// eBPF filter (ebpf_model.p4): accept only well-formed IPv4 packets and
// keep per-protocol statistics in two CounterArrays, one counting packets
// (increment) and one counting bytes (add).  Packets that are not IPv4,
// carry IPv4 options or are fragments are stopped in the parser (reject)
// or by the filter.  A small exact table, stored as an array map, blocks
// chosen IP protocols.
#include <core.p4>
#include <ebpf_model.p4>

typedef bit<48> mac_t;
typedef bit<32> ip4_t;

const bit<16> ETHERTYPE_IPV4 = 0x0800;

header ethernet_h {
    mac_t   dst;
    mac_t   src;
    bit<16> ether_type;
}

header ipv4_h {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  tos;
    bit<16> total_len;
    bit<16> ident;
    bit<3>  flags;
    bit<13> frag_offset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> checksum;
    ip4_t   src;
    ip4_t   dst;
}

struct headers_t {
    ethernet_h ethernet;
    ipv4_h     ipv4;
}

error { NotIPv4, HasOptions }

parser FilterParser(packet_in pkt, out headers_t hdr) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            default:        reject;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        verify(hdr.ipv4.version == 4, error.NotIPv4);
        verify(hdr.ipv4.ihl == 5, error.HasOptions);
        transition accept;
    }
}

control Ipv4Filter(inout headers_t hdr, out bool accept) {
    // Cells 0..255: one per IP protocol number.  Dense, so array maps.
    CounterArray(256, false) packets_by_proto;
    CounterArray(256, false) bytes_by_proto;
    // Sparse: per destination /24 (index = upper 24 bits of the address).
    CounterArray(32w0xffffff, true) packets_by_dst_net;

    bool blocked = false;

    action block() {
        blocked = true;
    }

    table protocol_blocklist {
        key = { hdr.ipv4.protocol : exact; }
        actions = { block; NoAction; }
        default_action = NoAction();
        implementation = array_table(256);
    }

    apply {
        accept = false;
        if (!hdr.ipv4.isValid()) {
            return;
        }
        // More-fragments set, or a non-zero offset: a fragment.
        if (hdr.ipv4.flags[0:0] == 1 || hdr.ipv4.frag_offset != 0) {
            return;
        }
        bit<32> proto = (bit<32>) hdr.ipv4.protocol;
        packets_by_proto.increment(proto);
        bytes_by_proto.add(proto, (bit<32>) hdr.ipv4.total_len);
        packets_by_dst_net.increment((bit<32>) hdr.ipv4.dst[31:8]);

        protocol_blocklist.apply();
        accept = !blocked;
    }
}

ebpfFilter(FilterParser(), Ipv4Filter()) main;
