// Probe (STF dialect): commands in upper case; tables and actions written
// with their control prefix (PIngress.tbl, PIngress.fwd) or bare; a `$`
// written right after the last hex digit; binary ternary values with `*`
// bits; a key named by a suffix of its expression (h.k2 for hdr.h.k2); an
// action parameter value in hex or decimal.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> k1; bit<8> k2; bit<8> v; }
struct headers_t { h_t h; }
struct meta_t { }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    action fwd(bit<9> p, bit<8> v) { sm.egress_spec = p; hdr.h.v = v; }
    action fwd_only(bit<9> p) { sm.egress_spec = p; }
    table tbl {
        key = { hdr.h.k1 : exact; hdr.h.k2 : ternary; }
        actions = { fwd; fwd_only; }
        default_action = fwd_only(3);
    }
    apply { tbl.apply(); }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    apply { }
}

control PCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
