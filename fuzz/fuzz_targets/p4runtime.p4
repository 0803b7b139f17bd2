// The program the p4runtime fuzz target writes to: one of each kind of
// P4Runtime entity v1model has.
#include <core.p4>
#include <v1model.p4>

@controller_header("packet_in")
header packet_in_t { bit<9> ingress_port; bit<7> reason; }
@controller_header("packet_out")
header packet_out_t { bit<9> egress_port; bit<7> _pad; }
header ethernet_t { bit<48> dst; bit<48> src; bit<16> etype; }
header ipv4_t {
    bit<4> version; bit<4> ihl; bit<8> tos; bit<16> len; bit<16> id;
    bit<3> flags; bit<13> frag; bit<8> ttl; bit<8> proto; bit<16> csum;
    bit<32> src; bit<32> dst;
}
struct headers_t { packet_in_t packet_in; packet_out_t packet_out; ethernet_t eth; ipv4_t ipv4; }
struct digest_t { bit<48> src; bit<9> port; }
struct meta_t { bit<8> color; bit<16> tenant; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    value_set<bit<16>>(4) special_types;
    state start {
        transition select(sm.ingress_port) { 510: parse_out; default: parse_eth; }
    }
    state parse_out { pkt.extract(hdr.packet_out); transition parse_eth; }
    state parse_eth {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) { 0x0800: parse_ipv4; special_types: accept; default: accept; }
    }
    state parse_ipv4 { pkt.extract(hdr.ipv4); transition accept; }
}
control VC(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    counter(16, CounterType.packets_and_bytes) port_in;
    register<bit<32>>(16) seen;
    meter(16, MeterType.bytes) rate;
    direct_counter(CounterType.packets_and_bytes) acl_hits;
    direct_meter<bit<8>>(MeterType.packets) acl_rate;
    action_selector(HashAlgorithm.crc16, 32w64, 32w14) ecmp;
    action to_port(bit<9> port) { sm.egress_spec = port; }
    action punt(bit<7> reason) {
        sm.egress_spec = 510;
        hdr.packet_in.setValid();
        hdr.packet_in.ingress_port = sm.ingress_port;
        hdr.packet_in.reason = reason;
    }
    action learn() { digest<digest_t>(1, { hdr.eth.src, sm.ingress_port }); }
    action drop() { mark_to_drop(sm); }
    action set_tenant(bit<16> tenant) { m.tenant = tenant; }
    action acl_permit() { acl_rate.read(m.color); }
    action acl_deny() { acl_rate.read(m.color); mark_to_drop(sm); }
    table l2 {
        key = { hdr.eth.dst : exact; }
        actions = { to_port; punt; learn; drop; }
        default_action = learn();
        support_timeout = true;
    }
    table routes {
        key = { hdr.ipv4.dst : lpm; }
        actions = { to_port; drop; }
        implementation = ecmp;
    }
    table acl {
        key = { hdr.ipv4.src : ternary; hdr.ipv4.proto : range; m.tenant : optional; }
        actions = { acl_permit; acl_deny; }
        counters = acl_hits;
        meters = acl_rate;
        default_action = acl_permit();
    }
    table tenants {
        key = { sm.ingress_port : exact; }
        actions = { set_tenant; NoAction; }
    }
    apply {
        if (hdr.packet_out.isValid()) {
            sm.egress_spec = hdr.packet_out.egress_port;
            hdr.packet_out.setInvalid();
        } else {
            port_in.count((bit<32>) sm.ingress_port);
            bit<32> n;
            seen.read(n, (bit<32>) sm.ingress_port);
            seen.write((bit<32>) sm.ingress_port, n + 1);
            rate.execute_meter((bit<32>) sm.ingress_port, m.color);
            tenants.apply();
            l2.apply();
            if (hdr.ipv4.isValid()) { routes.apply(); acl.apply(); }
            if (hdr.eth.etype == 0x0bad) { clone(CloneType.I2E, 7); }
        }
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.packet_in); pkt.emit(hdr.eth); pkt.emit(hdr.ipv4); }
}
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
