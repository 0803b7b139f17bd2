// Realistic PNA program: the basic forwarding job of a virtualised NIC.
// * HOST_TO_NET: a packet from a VM's vport is checked against the MAC
//   address the control plane assigned to that vport (anti-spoofing) and
//   sent to the uplink network port chosen for the vport.
// * NET_TO_HOST: a packet from the network is delivered to the vport that
//   owns its destination MAC; broadcast ARP goes to the NIC's CPU.
// Anything else is dropped with drop_packet().  Per-vport packet counters
// are kept in an indexed Counter.
#include <core.p4>
#include <pna.p4>

typedef bit<48> mac_t;

header ethernet_h { mac_t dst; mac_t src; bit<16> ether_type; }
header ipv4_h {
    bit<4>  version;  bit<4>  ihl;      bit<8>  tos;      bit<16> total_len;
    bit<16> ident;    bit<3>  flags;    bit<13> frag_offset;
    bit<8>  ttl;      bit<8>  protocol; bit<16> checksum;
    bit<32> src;      bit<32> dst;
}

struct headers_t { ethernet_h ethernet; ipv4_h ipv4; }
struct meta_t    { bit<16> vport_index; bool spoofed; }

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<16> ETHERTYPE_ARP  = 0x0806;
const mac_t   BROADCAST      = 0xffffffffffff;

parser NicParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 in pna_main_parser_input_metadata_t istd) {
    state start {
        meta.vport_index = 0;
        meta.spoofed = false;
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control NicPreControl(in headers_t hdr, inout meta_t meta,
                      in pna_pre_input_metadata_t istd,
                      inout pna_pre_output_metadata_t ostd) {
    apply {
        ostd.decrypt = false;   // no inline IPsec in this program
    }
}

control NicControl(inout headers_t hdr, inout meta_t meta,
                   in pna_main_input_metadata_t istd,
                   inout pna_main_output_metadata_t ostd) {
    Counter<bit<64>, bit<16>>(1024, PNA_CounterType_t.PACKETS_AND_BYTES) vport_stats;

    action drop() { drop_packet(); }

    // HOST_TO_NET: the vport the packet came from.
    action vport_egress(bit<16> index, mac_t allowed_src, PortId_t uplink) {
        meta.vport_index = index;
        meta.spoofed = hdr.ethernet.src != allowed_src;
        send_to_port(uplink);
    }
    table from_vport {
        key = { istd.input_port : exact; }
        actions = { vport_egress; drop; }
        default_action = drop();
        size = 1024;
    }

    // NET_TO_HOST: the vport that owns the destination address.
    action vport_ingress(bit<16> index, PortId_t vport) {
        meta.vport_index = index;
        send_to_port(vport);
    }
    action to_cpu() { send_to_port(PNA_PORT_CPU); }
    table to_vport {
        key = {
            hdr.ethernet.dst        : exact;
            hdr.ethernet.ether_type : optional;
        }
        actions = { vport_ingress; to_cpu; drop; }
        default_action = drop();
        const entries = {
            (BROADCAST, ETHERTYPE_ARP) : to_cpu();
        }
    }

    apply {
        if (istd.parser_error != error.NoError) {
            drop_packet();
            exit;
        }
        if (istd.direction == PNA_Direction_t.HOST_TO_NET) {
            from_vport.apply();
            if (meta.spoofed) {
                drop_packet();
            }
        } else {
            to_vport.apply();
        }
        vport_stats.count(meta.vport_index);
        if (hdr.ipv4.isValid() && hdr.ipv4.tos[1:0] == 3) {
            ostd.class_of_service = (ClassOfService_t) 1;   // congestion-marked
        }
    }
}

control NicDeparser(packet_out pkt, in headers_t hdr, in meta_t meta,
                    in pna_main_output_metadata_t ostd) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
    }
}

PNA_NIC(NicParser(), NicPreControl(), NicControl(), NicDeparser()) main;
