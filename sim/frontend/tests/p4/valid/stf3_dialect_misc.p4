// STF dialect corners the reference driver (p4c's bmv2 STF runner)
// accepts: `add ... = <id>` (the handle is ignored), `wait`, and
// `remove all`, which that driver ignores, so entries added before it
// keep matching; a priority on an exact-only table is accepted and
// ignored.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> k;
    bit<8> r;
}

struct headers_t { h_t h; }
struct meta_t { }

parser DmParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control DmVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    action set(bit<8> v) { hdr.h.r = v; }
    table t {
        key = { hdr.h.k : exact; }
        actions = { set; }
        default_action = set(0xee);
    }
    apply {
        sm.egress_spec = 2;
        t.apply();
    }
}

control DmEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control DmCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control DmDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(DmParser(), DmVerify(), Ing(), DmEgress(), DmCompute(),
         DmDeparser()) main;
