// Realistic PNA program: a bidirectional 1:1 NAT with per-flow statistics.
// Host-to-network packets have their private source address rewritten to a
// public one; network-to-host packets get the reverse rewrite of their
// destination.  One table serves both directions: SelectByDirection picks
// the "host side" address as the key.  Flow statistics live in Registers
// indexed by a CRC32 hash of direction-independent fields (remote address,
// host, protocol), so both directions of a flow share a cell; a per-host
// Meter polices traffic.
// The IPv4 and L4 checksums are fixed in the main control with an
// InternetChecksum (the v0.7 deparser cannot write headers).
#include <core.p4>
#include <pna.p4>

header ethernet_h { bit<48> dst; bit<48> src; bit<16> ether_type; }
header ipv4_h {
    bit<4>  version;  bit<4>  ihl;      bit<8>  tos;      bit<16> total_len;
    bit<16> ident;    bit<3>  flags;    bit<13> frag_offset;
    bit<8>  ttl;      bit<8>  protocol; bit<16> checksum;
    bit<32> src;      bit<32> dst;
}
header udp_h { bit<16> sport; bit<16> dport; bit<16> len; bit<16> checksum; }

struct headers_t { ethernet_h ethernet; ipv4_h ipv4; udp_h udp; }
struct meta_t    { bit<32> old_addr; bit<12> host_index; }

parser NatParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 in pna_main_parser_input_metadata_t istd) {
    state start {
        meta.old_addr = 0;
        meta.host_index = 0;
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            17: parse_udp;
            default: accept;
        }
    }
    state parse_udp {
        pkt.extract(hdr.udp);
        transition accept;
    }
}

control NatPre(in headers_t hdr, inout meta_t meta,
               in pna_pre_input_metadata_t istd,
               inout pna_pre_output_metadata_t ostd) {
    apply {}
}

control NatControl(inout headers_t hdr, inout meta_t meta,
                   in pna_main_input_metadata_t istd,
                   inout pna_main_output_metadata_t ostd) {
    Hash<bit<12>>(PNA_HashAlgorithm_t.CRC32) flow_hash;
    Register<bit<32>, bit<12>>(4096, 0) flow_packets;
    Register<bit<64>, bit<12>>(4096, 0) flow_last_seen;
    Meter<bit<12>>(4096, PNA_MeterType_t.BYTES) host_meter;
    InternetChecksum() ck;

    // to_addr: the public address on the way out, the private one on the
    // way in; host_index names the host in both directions.
    action translate(bit<32> to_addr, bit<12> host_index, PortId_t port) {
        meta.host_index = host_index;
        if (istd.direction == PNA_Direction_t.HOST_TO_NET) {
            meta.old_addr = hdr.ipv4.src;
            hdr.ipv4.src = to_addr;
        } else {
            meta.old_addr = hdr.ipv4.dst;
            hdr.ipv4.dst = to_addr;
        }
        send_to_port(port);
    }
    action no_translation() { drop_packet(); }
    table nat {
        // The address on the host's side of the NIC: the private source on
        // the way out, the public destination on the way in.
        key = {
            SelectByDirection(istd.direction, hdr.ipv4.dst, hdr.ipv4.src) : exact @name("host_side_addr");
            istd.direction == PNA_Direction_t.HOST_TO_NET : exact @name("outbound");
        }
        actions = { translate; no_translation; }
        default_action = no_translation();
    }

    apply {
        if (!hdr.ipv4.isValid() || !(is_net_port(istd.input_port) || is_host_port(istd.input_port))) {
            drop_packet();
            exit;
        }
        if (!nat.apply().hit) {
            exit;
        }
        bit<32> new_addr = SelectByDirection(istd.direction, hdr.ipv4.dst, hdr.ipv4.src);
        // Fix the IPv4 header checksum and, if present, the UDP checksum.
        ck.subtract({ hdr.ipv4.checksum, meta.old_addr });
        ck.add(new_addr);
        hdr.ipv4.checksum = ck.get();
        if (hdr.udp.isValid() && hdr.udp.checksum != 0) {
            ck.clear();
            ck.subtract({ hdr.udp.checksum, meta.old_addr });
            ck.add(new_addr);
            hdr.udp.checksum = ck.get();
        }
        // Both directions of a flow hash to the same statistics cell: key on
        // the remote address, the host and the protocol.
        bit<12> cell = flow_hash.get_hash({
            SelectByDirection(istd.direction, hdr.ipv4.src, hdr.ipv4.dst),
            meta.host_index,
            hdr.ipv4.protocol });
        @atomic {
            flow_packets.write(cell, flow_packets.read(cell) + 1);
        }
        flow_last_seen.write(cell, (bit<64>) (TimestampUint_t) istd.timestamp);
        if (host_meter.execute(meta.host_index) == PNA_MeterColor_t.RED) {
            drop_packet();
        }
    }
}

control NatDeparser(packet_out pkt, in headers_t hdr, in meta_t meta,
                    in pna_main_output_metadata_t ostd) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.udp);
    }
}

PNA_NIC(NatParser(), NatPre(), NatControl(), NatDeparser()) main;
