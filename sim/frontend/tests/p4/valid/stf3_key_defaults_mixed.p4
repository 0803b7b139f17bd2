// STF rule (add defaults): every key field of a table gets a value; the
// fields an `add` line leaves out take defaults by match kind: exact 0,
// ternary full wildcard, lpm 0/0. Checked here on one table with exact,
// ternary and lpm keys, entries leaving out different keys.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  a;   // exact
    bit<8>  b;   // ternary
    bit<16> c;   // lpm
    bit<8>  d;   // exact
    bit<8>  r;
}

struct headers_t { h_t h; }
struct meta_t { }

parser KdParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control KdVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    action set(bit<8> v) { hdr.h.r = v; }
    table t {
        key = {
            hdr.h.a : exact;
            hdr.h.b : ternary;
            hdr.h.c : lpm;
            hdr.h.d : exact;
        }
        actions = { set; }
        default_action = set(0xee);
    }
    apply {
        sm.egress_spec = 2;
        t.apply();
    }
}

control KdEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control KdCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control KdDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(KdParser(), KdVerify(), Ing(), KdEgress(), KdCompute(),
         KdDeparser()) main;
