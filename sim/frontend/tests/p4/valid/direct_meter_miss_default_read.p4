#include <core.p4>
#include <v1model.p4>
header ethernet_t { bit<48> dstAddr; bit<48> srcAddr; bit<16> etherType; }
header r_t { bit<8> color; }
struct headers { ethernet_t ethernet; r_t r; }
struct metadata { bit<8> color; }
parser P(packet_in packet, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { packet.extract(hdr.ethernet); transition accept; }
}
control V(inout headers hdr, inout metadata meta) { apply { } }
control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    direct_meter<bit<8>>(MeterType.packets) dm;
    action with_read() { dm.read(meta.color); }
    action without_read() { }
    table t {
        key = { hdr.ethernet.srcAddr: exact; }
        actions = { with_read; without_read; }
        default_action = with_read();
        meters = dm;
    }
    apply {
        meta.color = 9;
        t.apply();
        hdr.r.setValid();
        hdr.r.color = meta.color;
        sm.egress_spec = 2;
    }
}
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control C(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out packet, in headers hdr) { apply { packet.emit(hdr); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
