// Realistic PSA program: per-tenant accounting and policing.  A VLAN tag
// selects a tenant; ingress counts the tenant's bytes (Counter), meters it
// colour-aware with a pre-colour taken from the DSCP (Meter), keeps the last
// time each tenant was seen and a packet count in Registers (read-modify-
// write under @atomic), and an ACL table owns a DirectCounter and a
// DirectMeter.  RED packets are dropped, YELLOW ones re-marked.
#include <core.p4>
#include <psa.p4>

typedef bit<10> tenant_t;
const bit<32> NUM_TENANTS = 1024;
const bit<6>  DSCP_AF11 = 10;   // in-profile
const bit<6>  DSCP_AF12 = 12;   // out-of-profile, drop precedence 2

header ethernet_h { bit<48> dst; bit<48> src; bit<16> ether_type; }
header vlan_h     { bit<3> pcp; bit<1> dei; bit<12> vid; bit<16> ether_type; }
header ipv4_h {
    bit<4>  version;  bit<4>  ihl;     bit<6>  dscp;     bit<2>  ecn;
    bit<16> total_len; bit<16> ident;  bit<3>  flags;    bit<13> frag_offset;
    bit<8>  ttl;      bit<8>  protocol; bit<16> checksum;
    bit<32> src;      bit<32> dst;
}

struct headers_t { ethernet_h ethernet; vlan_h vlan; ipv4_h ipv4; }
struct meta_t    { tenant_t tenant; bool known_tenant; }
struct empty_t   {}

parser PolicerParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                     in psa_ingress_parser_input_metadata_t istd,
                     in empty_t resubmit_meta, in empty_t recirculate_meta) {
    state start {
        meta.tenant = 0;
        meta.known_tenant = false;
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x8100: parse_vlan;
            default: accept;
        }
    }
    state parse_vlan {
        pkt.extract(hdr.vlan);
        transition select(hdr.vlan.ether_type) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control PolicerIngress(inout headers_t hdr, inout meta_t meta,
                       in psa_ingress_input_metadata_t istd,
                       inout psa_ingress_output_metadata_t ostd) {
    Counter<bit<64>, tenant_t>(NUM_TENANTS, PSA_CounterType_t.BYTES) tenant_bytes;
    Meter<tenant_t>(NUM_TENANTS, PSA_MeterType_t.BYTES) tenant_meter;
    Register<bit<48>, tenant_t>(NUM_TENANTS) last_seen;
    Register<bit<32>, tenant_t>(NUM_TENANTS, 0) pkt_count;
    DirectCounter<bit<64>>(PSA_CounterType_t.PACKETS_AND_BYTES) acl_hits;
    DirectMeter(PSA_MeterType_t.PACKETS) acl_rate;

    PSA_MeterColor_t color = PSA_MeterColor_t.GREEN;

    action set_tenant(tenant_t tenant, PortId_t port) {
        meta.tenant = tenant;
        meta.known_tenant = true;
        send_to_port(ostd, port);
    }
    action unknown_vlan() { ingress_drop(ostd); }
    table vlan_to_tenant {
        key = { hdr.vlan.vid : exact; }
        actions = { set_tenant; unknown_vlan; }
        default_action = unknown_vlan();
    }

    action acl_permit() {
        acl_hits.count();
        if (acl_rate.execute() == PSA_MeterColor_t.RED) {
            ingress_drop(ostd);
        }
    }
    action acl_deny() {
        acl_hits.count();
        ingress_drop(ostd);
    }
    table acl {
        key = {
            hdr.ipv4.src      : ternary;
            hdr.ipv4.dst      : ternary;
            hdr.ipv4.protocol : optional;
        }
        actions = { acl_permit; acl_deny; }
        default_action = acl_permit();
        psa_direct_counter = acl_hits;
        psa_direct_meter = acl_rate;
    }

    apply {
        if (!hdr.vlan.isValid()) {
            ingress_drop(ostd);
            exit;
        }
        vlan_to_tenant.apply();
        if (!meta.known_tenant) {
            exit;
        }
        tenant_bytes.count(meta.tenant);
        @atomic {
            bit<32> n = pkt_count.read(meta.tenant);
            pkt_count.write(meta.tenant, n + 1);
        }
        last_seen.write(meta.tenant, (bit<48>) ((TimestampUint_t) istd.ingress_timestamp));
        if (hdr.ipv4.isValid()) {
            acl.apply();
            // Packets already marked out-of-profile arrive YELLOW.
            PSA_MeterColor_t pre_color = PSA_MeterColor_t.GREEN;
            if (hdr.ipv4.dscp == DSCP_AF12) {
                pre_color = PSA_MeterColor_t.YELLOW;
            }
            color = tenant_meter.execute(meta.tenant, pre_color);
            if (color == PSA_MeterColor_t.RED) {
                ingress_drop(ostd);
            } else if (color == PSA_MeterColor_t.YELLOW && hdr.ipv4.dscp == DSCP_AF11) {
                hdr.ipv4.dscp = DSCP_AF12;
            }
        }
    }
}

control PolicerIngressDeparser(packet_out pkt, out empty_t clone_i2e_meta,
                               out empty_t resubmit_meta, out empty_t normal_meta,
                               inout headers_t hdr, in meta_t meta,
                               in psa_ingress_output_metadata_t istd) {
    InternetChecksum() csum;
    apply {
        if (hdr.ipv4.isValid()) {  // the DSCP may have changed
            csum.add({ hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn,
                       hdr.ipv4.total_len, hdr.ipv4.ident, hdr.ipv4.flags,
                       hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
                       hdr.ipv4.src, hdr.ipv4.dst });
            hdr.ipv4.checksum = csum.get();
        }
        pkt.emit(hdr);
    }
}

parser PassEgressParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                        in psa_egress_parser_input_metadata_t istd,
                        in empty_t normal_meta, in empty_t clone_i2e_meta,
                        in empty_t clone_e2e_meta) {
    state start { transition accept; }
}

control PassEgress(inout headers_t hdr, inout meta_t meta,
                   in psa_egress_input_metadata_t istd,
                   inout psa_egress_output_metadata_t ostd) {
    apply {}
}

control PassEgressDeparser(packet_out pkt, out empty_t clone_e2e_meta,
                           out empty_t recirculate_meta, inout headers_t hdr,
                           in meta_t meta, in psa_egress_output_metadata_t istd,
                           in psa_egress_deparser_input_metadata_t edstd) {
    apply {}
}

IngressPipeline(PolicerParser(), PolicerIngress(), PolicerIngressDeparser()) ip;
EgressPipeline(PassEgressParser(), PassEgress(), PassEgressDeparser()) ep;
PSA_Switch(ip, PacketReplicationEngine(), ep, BufferingQueueingEngine()) main;
