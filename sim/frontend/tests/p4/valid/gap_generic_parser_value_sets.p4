#include <core.p4>
#include <v1model.p4>
header tag_t { bit<8> kind; }
header in_t { bit<8> a; }
struct headers_t { tag_t t1; tag_t t2; in_t i; }
struct meta_t { }
// A generic parser with its own value set, instantiated twice with
// different type arguments: each instance has its own value set
// (PParser.p1.vs of bit<8>, PParser.p2.vs of bit<16>).
parser TagParser<T>(packet_in pkt, out tag_t tag, out bool more) {
    value_set<T>(4) vs;
    state start {
        pkt.extract(tag);
        more = tag.kind == 0xff;
        transition select(pkt.lookahead<T>()) {
            vs: yes;
            default: accept;
        }
    }
    state yes { more = true; transition accept; }
}
parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    TagParser<bit<8>>() p1;
    TagParser<bit<16>>() p2;
    bool more;
    state start { p1.apply(pkt, hdr.t1, more); transition select(more) { true: second; default: accept; } }
    state second { p2.apply(pkt, hdr.t2, more); transition select(more) { true: inner; default: accept; } }
    state inner { pkt.extract(hdr.i); transition accept; }
}
control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }
control PIngress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { sm.egress_spec = 2; if (hdr.i.isValid()) { hdr.i.a = hdr.i.a + 1; } }
}
control PEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.t1); pkt.emit(hdr.t2); pkt.emit(hdr.i); } }
V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(), PDeparser()) main;
