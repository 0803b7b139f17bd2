/*
 * roce_paths.p4 -- RoCEv2 path selection on the Janus SmartNIC (v1model).
 *
 * RoCEv2 frames (IPv4, UDP destination port 4791) that a VF sends toward
 * the uplinks get the UDP source port that places them on a fabric path.
 * The fabric's leaf switches spread flows over their spines by a hash of
 * the 5-tuple; this program computes the same hash (the model shared with
 * the fabric simulator, docs/nic-model.md), so it knows which path each
 * frame takes:
 *
 *   path = uplink * SPINES_PER_UPLINK + spine
 *   spine = crc16(ipv4.src, ipv4.dst, ipv4.protocol, udp.sport, udp.dport) % 4
 *
 * Source port and uplink of a frame:
 *   default  the source port Linux derives from the two QP numbers (the
 *            local one comes in a tx_meta tag the host driver inserts, the
 *            remote one is the BTH destination QP); the uplink is bit 0 of
 *            that port;
 *   pinned   a controller entry for (destination IP, destination QP) gives
 *            both;
 *   failover if the path so chosen is marked down (register path_down,
 *            written by the control plane), the flow is hashed over the
 *            live paths instead: from its default port and uplink, the
 *            first live path in a fixed probe order (below).  No live path
 *            at all: dropped.
 * Frames and bytes are counted per path.
 *
 * The rest of the traffic is kept simple: other frames from a VF leave by
 * uplink 0, frames from the uplinks go to the VF owning the destination MAC.
 */
#include <core.p4>
#include <v1model.p4>
#include "include/janus_nic.p4"

typedef bit<48> mac_addr_t;
typedef bit<32> ipv4_addr_t;
typedef bit<24> qpn_t;

const bit<16> ETH_TYPE_IPV4    = 0x0800;
/* Ethertype of the tx_meta tag (IEEE 802 local experimental ethertype 1). */
const bit<16> ETH_TYPE_TX_META = 0x88B5;
const bit<8>  PROTO_UDP        = 17;
const bit<16> UDP_PORT_ROCEV2  = 4791;
/* Linux's lowest RoCEv2 source port (IB_ROCE_UDP_ENCAP_VALID_PORT_MIN). */
const bit<16> ROCE_SPORT_MIN   = 0xC000;

/* The fabric model: each uplink's leaf spreads over 4 spines. */
const bit<32> SPINES_PER_UPLINK = 4;
const bit<32> PATH_COUNT        = 8;    // NIC_UPLINK_COUNT * SPINES_PER_UPLINK

/*
 * XOR-ing the source port with SPINE_DELTA_t moves a flow from spine s to
 * spine s ^ t, whatever the addresses: CRC-16 with a zero initial value is
 * linear, so crc(x ^ d) = crc(x) ^ crc(d), and crc(d) % 4 == t for these
 * d (found by search; see p4/tools/make_roce_stf.py).  The four ports
 * p, p ^ 0x0001, p ^ 0x0800, p ^ 0x0801 therefore reach all four spines,
 * and all stay in 0xC000..0xFFFF.
 */
const bit<16> SPINE_DELTA_1 = 0x0001;
const bit<16> SPINE_DELTA_2 = 0x0800;
const bit<16> SPINE_DELTA_3 = 0x0801;

/* Index of the `selections` counters. */
const bit<32> SELECT_DEFAULT      = 0;  // Linux entropy, its path live
const bit<32> SELECT_PINNED       = 1;  // controller's pin, its path live
const bit<32> SELECT_FAILOVER     = 2;  // chosen path down, moved to a live one
const bit<32> SELECT_NO_LIVE_PATH = 3;  // every probed path down: dropped

/* ------------------------------------------------------------------ */
/* Headers                                                             */
/* ------------------------------------------------------------------ */

header ethernet_t {
    mac_addr_t dst_addr;
    mac_addr_t src_addr;
    bit<16>    ether_type;
}

/*
 * Inserted by the host's RDMA driver after the source MAC of the RoCEv2
 * frames it sends (ethertype 0x88B5), removed by the NIC: the number of
 * the sending (local) QP, which the wire format does not carry.
 */
header tx_meta_t {
    qpn_t   local_qpn;
    bit<8>  reserved;
    bit<16> ether_type;   // ethertype of what follows
}

header ipv4_t {
    bit<4>      version;
    bit<4>      ihl;
    bit<8>      diffserv;
    bit<16>     total_len;
    bit<16>     identification;
    bit<3>      flags;
    bit<13>     frag_offset;
    bit<8>      ttl;
    bit<8>      protocol;
    bit<16>     hdr_checksum;
    ipv4_addr_t src_addr;
    ipv4_addr_t dst_addr;
}

header udp_t {
    bit<16> src_port;
    bit<16> dst_port;
    bit<16> length;
    bit<16> checksum;
}

/* InfiniBand base transport header (12 bytes). */
header bth_t {
    bit<8>  opcode;
    bit<1>  solicited;
    bit<1>  mig_req;
    bit<2>  pad_count;
    bit<4>  version;
    bit<16> pkey;
    bit<1>  fecn;
    bit<1>  becn;
    bit<6>  reserved1;
    qpn_t   dst_qp;
    bit<1>  ack_req;
    bit<7>  reserved2;
    bit<24> psn;
}

struct roce_headers_t {
    ethernet_t ethernet;
    tx_meta_t  tx_meta;
    ipv4_t     ipv4;
    udp_t      udp;
    bth_t      bth;
}

struct roce_meta_t {
    /* The flow's default choice (Linux entropy). */
    bit<16>    default_sport;
    nic_port_t default_uplink;
    /* The choice made (default or pinned, then maybe failover). */
    bit<16>    sport;
    nic_port_t uplink;
    bit<32>    path;
    bool       pinned;
    bool       found_live;     // set by the failover probe
}

/* ------------------------------------------------------------------ */
/* Parser                                                              */
/* ------------------------------------------------------------------ */

parser RoceParser(packet_in packet,
                  out roce_headers_t hdr,
                  inout roce_meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETH_TYPE_TX_META : parse_tx_meta;
            ETH_TYPE_IPV4    : parse_ipv4;
            default          : accept;
        }
    }

    state parse_tx_meta {
        packet.extract(hdr.tx_meta);
        transition select(hdr.tx_meta.ether_type) {
            ETH_TYPE_IPV4 : parse_ipv4;
            default       : accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.ihl, hdr.ipv4.frag_offset, hdr.ipv4.protocol) {
            (5, 0, PROTO_UDP) : parse_udp;
            default           : accept;
        }
    }

    state parse_udp {
        packet.extract(hdr.udp);
        transition select(hdr.udp.dst_port) {
            UDP_PORT_ROCEV2 : parse_bth;
            default         : accept;
        }
    }

    state parse_bth {
        packet.extract(hdr.bth);
        transition accept;
    }
}

control RoceVerifyChecksum(inout roce_headers_t hdr, inout roce_meta_t meta) {
    apply { }
}

/* ------------------------------------------------------------------ */
/* Ingress                                                             */
/* ------------------------------------------------------------------ */

/*
 * Linux's UDP source port for a RoCEv2 QP pair (rdma_calc_flow_label and
 * rdma_flow_label_to_udp_sport): a 20-bit flow label folded from the
 * product of the two QP numbers, folded again into 14 bits, plus 0xC000.
 */
control LinuxRoceEntropy(in qpn_t local_qpn, in qpn_t remote_qpn, out bit<16> sport) {
    apply {
        bit<64> v = (bit<64>) local_qpn * (bit<64>) remote_qpn;
        v = v ^ (v >> 20);
        v = v ^ (v >> 40);
        bit<20> flow_label = v[19:0];
        bit<16> fl_low  = (bit<16>) (flow_label & 0x03FFF);
        bit<16> fl_high = (bit<16>) ((flow_label & 0xFC000) >> 14);
        sport = (fl_low ^ fl_high) | ROCE_SPORT_MIN;
    }
}

control RocePathSelect(inout roce_headers_t hdr,
                       inout roce_meta_t meta,
                       inout standard_metadata_t sm) {
    /* Frames and bytes sent on each path (index: path). */
    counter(PATH_COUNT, CounterType.packets_and_bytes) path_packets;
    /* How each RoCEv2 frame's port was chosen (index: SELECT_*). */
    counter(4, CounterType.packets) selections;
    /* 1 = the path is down.  Written by the control plane; all paths start up. */
    register<bit<1>>(PATH_COUNT) path_down;

    LinuxRoceEntropy() linux_entropy;

    /* The spine the leaf switch picks for this frame with source port `sport`. */
    action fabric_spine(in bit<16> sport, out bit<32> spine) {
        hash(spine, HashAlgorithm.crc16, 32w0,
             { hdr.ipv4.src_addr, hdr.ipv4.dst_addr, hdr.ipv4.protocol,
               sport, hdr.udp.dst_port },
             SPINES_PER_UPLINK);
    }

    action pin(bit<16> sport, nic_port_t uplink) {
        meta.sport = sport;
        meta.uplink = uplink;
        meta.pinned = true;
    }

    /* Controller-chosen source port and uplink per remote QP. */
    table pinned_flows {
        key = {
            hdr.ipv4.dst_addr : exact;
            hdr.bth.dst_qp    : exact;
        }
        actions = { pin; NoAction; }
        default_action = NoAction();
    }

    /* One step of the failover probe: take (uplink, sport) if no live path
     * was found yet and this one is up. */
    action probe(in nic_port_t uplink, in bit<16> sport, in bit<32> spine) {
        bit<32> path = (bit<32>) uplink * SPINES_PER_UPLINK + spine;
        bit<1> down;
        path_down.read(down, path);
        if (!meta.found_live && down == 0) {
            meta.found_live = true;
            meta.sport = sport;
            meta.uplink = uplink;
            meta.path = path;
        }
    }

    apply {
        // Default: Linux entropy from the QP pair, or the host's own port
        // when the frame has no tx_meta tag.
        if (hdr.tx_meta.isValid()) {
            linux_entropy.apply(hdr.tx_meta.local_qpn, hdr.bth.dst_qp, meta.default_sport);
        } else {
            meta.default_sport = hdr.udp.src_port;
        }
        meta.default_uplink = (nic_port_t) meta.default_sport[0:0];
        meta.sport = meta.default_sport;
        meta.uplink = meta.default_uplink;

        pinned_flows.apply();

        // Is the chosen path up?
        bit<32> spine;
        fabric_spine(meta.sport, spine);
        bit<1> down = 1;
        if (nic_is_uplink(meta.uplink)) {
            meta.path = (bit<32>) meta.uplink * SPINES_PER_UPLINK + spine;
            path_down.read(down, meta.path);
        }

        if (down == 0) {
            if (meta.pinned) {
                selections.count(SELECT_PINNED);
            } else {
                selections.count(SELECT_DEFAULT);
            }
        } else {
            // Failover: the four spines from the default uplink, starting
            // with the flow's own, then the same on the other uplink.
            bit<16> p0 = meta.default_sport;
            bit<16> p1 = p0 ^ SPINE_DELTA_1;
            bit<16> p2 = p0 ^ SPINE_DELTA_2;
            bit<16> p3 = p0 ^ SPINE_DELTA_3;
            bit<32> s0;
            bit<32> s1;
            bit<32> s2;
            bit<32> s3;
            fabric_spine(p0, s0);
            fabric_spine(p1, s1);
            fabric_spine(p2, s2);
            fabric_spine(p3, s3);
            nic_port_t u0 = meta.default_uplink;
            nic_port_t u1 = NIC_UPLINK_1 - u0;
            probe(u0, p0, s0);
            probe(u0, p1, s1);
            probe(u0, p2, s2);
            probe(u0, p3, s3);
            probe(u1, p0, s0);
            probe(u1, p1, s1);
            probe(u1, p2, s2);
            probe(u1, p3, s3);
            if (meta.found_live) {
                selections.count(SELECT_FAILOVER);
            } else {
                selections.count(SELECT_NO_LIVE_PATH);
            }
        }

        if (down == 0 || meta.found_live) {
            path_packets.count(meta.path);
            hdr.udp.src_port = meta.sport;
            hdr.udp.checksum = 0;   // RoCEv2 leaves the UDP checksum at 0
            sm.egress_spec = meta.uplink;
        } else {
            mark_to_drop(sm);
        }
    }
}

control RoceIngress(inout roce_headers_t hdr,
                    inout roce_meta_t meta,
                    inout standard_metadata_t sm) {
    RocePathSelect() path_select;

    action drop() {
        mark_to_drop(sm);
    }

    action to_host(nic_port_t port) {
        sm.egress_spec = port;
    }

    /* MAC address of each VF, for frames from the uplinks. */
    table host_macs {
        key = { hdr.ethernet.dst_addr : exact; }
        actions = { to_host; drop; }
        default_action = drop();
    }

    apply {
        if (nic_is_uplink(sm.ingress_port)) {
            host_macs.apply();
        } else if (nic_is_vf(sm.ingress_port)) {
            if (hdr.tx_meta.isValid()) {
                hdr.ethernet.ether_type = hdr.tx_meta.ether_type;
            }
            if (hdr.bth.isValid()) {
                path_select.apply(hdr, meta, sm);
            } else {
                sm.egress_spec = NIC_UPLINK_0;
            }
            hdr.tx_meta.setInvalid();
        } else {
            drop();
        }
    }
}

control RoceEgress(inout roce_headers_t hdr,
                   inout roce_meta_t meta,
                   inout standard_metadata_t sm) {
    apply { }
}

/* Only the UDP source port and checksum change: the IPv4 header is left
 * as it came, so its checksum stays right. */
control RoceComputeChecksum(inout roce_headers_t hdr, inout roce_meta_t meta) {
    apply { }
}

control RoceDeparser(packet_out packet, in roce_headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.tx_meta);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.udp);
        packet.emit(hdr.bth);
    }
}

V1Switch(RoceParser(),
         RoceVerifyChecksum(),
         RoceIngress(),
         RoceEgress(),
         RoceComputeChecksum(),
         RoceDeparser()) main;
