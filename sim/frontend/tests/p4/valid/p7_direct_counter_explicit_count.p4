// p4c (ExternConverter_direct_counter): direct_counter.count() called in
// an action generates no code for bmv2 (the table's hit counts the entry
// anyway), so the call changes nothing the packet shows; the action's
// other statements run as written, on a hit and as the default action.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> key;
    bit<8> mark;
}
struct headers_t {
    h_t h;
}
struct meta_t { }

parser DcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}
control DcVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control DcIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    direct_counter(CounterType.packets_and_bytes) dc;
    action fwd(bit<9> port, bit<8> mark) {
        dc.count();
        sm.egress_spec = port;
        hdr.h.mark = mark;
    }
    action miss() {
        dc.count();
        sm.egress_spec = 3;
        hdr.h.mark = 0xee;
    }
    table t {
        key = { hdr.h.key: exact; }
        actions = { fwd; miss; }
        counters = dc;
        default_action = miss();
    }
    apply {
        t.apply();
    }
}
control DcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}
control DcCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control DcDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}
V1Switch(DcParser(), DcVerify(), DcIngress(), DcEgress(), DcCompute(),
         DcDeparser()) main;
