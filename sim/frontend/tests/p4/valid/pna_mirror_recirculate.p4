// Realistic PNA program: VXLAN termination with mirroring and telemetry.
// * Network-to-host VXLAN packets for a known VNI are decapsulated in two
//   passes: the first pass strips the outer headers and recirculate()s;
//   the second pass (istd.recirculated / istd.pass) delivers the inner
//   frame to the tenant's vport.
// * mirror_packet() requests up to two copies per packet in separate slots:
//   slot 0 for a per-tenant monitoring session chosen by a table (with a
//   DirectCounter), slot 1 for 1-in-256 random sampling to a collector.
// * New inner source MACs are reported with a Digest from the deparser.
// This program uses the later-revision deparser signature in which the
// headers are `inout` (JANUS_PNA_DEPARSER_INOUT), so the deparser itself
// rewrites the inner IPv4 checksum after the TTL decrement.
#define JANUS_PNA_DEPARSER_INOUT
#include <core.p4>
#include <pna.p4>

header ethernet_h { bit<48> dst; bit<48> src; bit<16> ether_type; }
header ipv4_h {
    bit<4>  version;  bit<4>  ihl;      bit<8>  tos;      bit<16> total_len;
    bit<16> ident;    bit<3>  flags;    bit<13> frag_offset;
    bit<8>  ttl;      bit<8>  protocol; bit<16> checksum;
    bit<32> src;      bit<32> dst;
}
header udp_h   { bit<16> sport; bit<16> dport; bit<16> len; bit<16> checksum; }
header vxlan_h { bit<8> flags; bit<24> reserved; bit<24> vni; bit<8> reserved2; }

struct headers_t {
    ethernet_h outer_eth; ipv4_h outer_ipv4; udp_h outer_udp; vxlan_h vxlan;
    ethernet_h inner_eth; ipv4_h inner_ipv4;
}
struct mac_digest_t { bit<48> mac; bit<24> vni; }
struct meta_t { bool learn; mac_digest_t learned; }

const MirrorSlotId_t TENANT_MONITOR_SLOT = (MirrorSlotId_t) 0;
const MirrorSlotId_t SAMPLING_SLOT = (MirrorSlotId_t) 1;
const MirrorSessionId_t SAMPLING_SESSION = (MirrorSessionId_t) 100;

parser VxParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                in pna_main_parser_input_metadata_t istd) {
    state start {
        meta.learn = false;
        transition select(istd.recirculated) {
            true: parse_inner;        // outer headers are already gone
            false: parse_outer;
        }
    }
    state parse_outer {
        pkt.extract(hdr.outer_eth);
        transition select(hdr.outer_eth.ether_type) {
            0x0800: parse_outer_ipv4;
            default: accept;
        }
    }
    state parse_outer_ipv4 {
        pkt.extract(hdr.outer_ipv4);
        transition select(hdr.outer_ipv4.protocol) {
            17: parse_outer_udp;
            default: accept;
        }
    }
    state parse_outer_udp {
        pkt.extract(hdr.outer_udp);
        transition select(hdr.outer_udp.dport) {
            4789: parse_vxlan;
            default: accept;
        }
    }
    state parse_vxlan {
        pkt.extract(hdr.vxlan);
        transition parse_inner;
    }
    state parse_inner {
        pkt.extract(hdr.inner_eth);
        transition select(hdr.inner_eth.ether_type) {
            0x0800: parse_inner_ipv4;
            default: accept;
        }
    }
    state parse_inner_ipv4 {
        pkt.extract(hdr.inner_ipv4);
        transition accept;
    }
}

control VxPre(in headers_t hdr, inout meta_t meta,
              in pna_pre_input_metadata_t istd, inout pna_pre_output_metadata_t ostd) {
    apply {}
}

control VxControl(inout headers_t hdr, inout meta_t meta,
                  in pna_main_input_metadata_t istd,
                  inout pna_main_output_metadata_t ostd) {
    DirectCounter<bit<64>>(PNA_CounterType_t.PACKETS_AND_BYTES) monitored;
    Random<bit<8>>(0, 255) sampler;

    action decap() {
        hdr.outer_eth.setInvalid();
        hdr.outer_ipv4.setInvalid();
        hdr.outer_udp.setInvalid();
        hdr.vxlan.setInvalid();
        recirculate();
    }
    table vni_terminate {
        key = { hdr.vxlan.vni : exact; }
        actions = { decap; NoAction; }
        default_action = NoAction();
    }
    action deliver(PortId_t vport) { send_to_port(vport); }
    action unknown() { drop_packet(); }
    table inner_dmac {
        key = { hdr.inner_eth.dst : exact; }
        actions = { deliver; unknown; }
        default_action = unknown();
    }
    action monitor(MirrorSessionId_t session) {
        monitored.count();
        mirror_packet(TENANT_MONITOR_SLOT, session);
    }
    action no_monitor() { monitored.count(); }
    table tenant_monitoring {
        key = { istd.input_port : exact; hdr.inner_eth.src : ternary; }
        actions = { monitor; no_monitor; }
        default_action = no_monitor();
        pna_direct_counter = monitored;
    }
    action known_source() {}
    action new_source() {
        meta.learn = true;
        meta.learned.mac = hdr.inner_eth.src;
        meta.learned.vni = hdr.vxlan.vni;
    }
    table learned_macs {
        key = { hdr.vxlan.vni : exact; hdr.inner_eth.src : exact; }
        actions = { known_source; new_source; }
        default_action = new_source();
        pna_idle_timeout = PNA_IdleTimeout_t.NOTIFY_CONTROL;
    }

    apply {
        if (!istd.recirculated) {
            if (!hdr.vxlan.isValid() || istd.direction != PNA_Direction_t.NET_TO_HOST) {
                drop_packet();
            } else {
                learned_macs.apply();
                if (!vni_terminate.apply().hit) {
                    drop_packet();
                }
            }
            exit;
        }
        // Second pass: the inner frame.
        inner_dmac.apply();
        tenant_monitoring.apply();
        if (sampler.read() == 0) {
            mirror_packet(SAMPLING_SLOT, SAMPLING_SESSION);
        }
        if (hdr.inner_ipv4.isValid()) {
            hdr.inner_ipv4.ttl = hdr.inner_ipv4.ttl - 1;
        }
    }
}

control VxDeparser(packet_out pkt, inout headers_t hdr, in meta_t meta,
                   in pna_main_output_metadata_t ostd) {
    Digest<mac_digest_t>() mac_learning;
    InternetChecksum() ck;
    apply {
        if (meta.learn) {
            mac_learning.pack(meta.learned);
        }
        if (hdr.inner_ipv4.isValid() && !hdr.outer_eth.isValid()) {
            ck.add({ hdr.inner_ipv4.version, hdr.inner_ipv4.ihl, hdr.inner_ipv4.tos,
                     hdr.inner_ipv4.total_len, hdr.inner_ipv4.ident, hdr.inner_ipv4.flags,
                     hdr.inner_ipv4.frag_offset, hdr.inner_ipv4.ttl, hdr.inner_ipv4.protocol,
                     hdr.inner_ipv4.src, hdr.inner_ipv4.dst });
            hdr.inner_ipv4.checksum = ck.get();
        }
        pkt.emit(hdr);
    }
}

PNA_NIC(VxParser(), VxPre(), VxControl(), VxDeparser()) main;
