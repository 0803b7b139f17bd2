// A parser instance passed as a constructor argument of another parser,
// which applies it as a sub-parser.
#include <core.p4>
#include <v1model.p4>
header eth_h { bit<48> dst; bit<48> src; bit<16> etype; }
header tag_h { bit<8> v; }
struct hdrs_t { eth_h eth; tag_h tag; }
struct meta_t { }
parser Sub(packet_in pkt, inout hdrs_t h);
parser EthSub(packet_in pkt, inout hdrs_t h) {
    state start { pkt.extract(h.eth); transition accept; }
}
parser Wrap(packet_in pkt, inout hdrs_t h)(Sub s) {
    state start {
        s.apply(pkt, h);
        transition select(h.eth.etype) {
            0x88b5: tag;
            default: accept;
        }
    }
    state tag { pkt.extract(h.tag); transition accept; }
}
parser P(packet_in pkt, out hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {
    EthSub() eth;
    Wrap(eth) wrap;
    state start { wrap.apply(pkt, h); transition accept; }
}
control VC(inout hdrs_t h, inout meta_t m) { apply { } }
control I(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        if (h.tag.isValid()) { h.tag.v = h.tag.v + 1; }
        sm.egress_spec = 1;
    }
}
control E(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout hdrs_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in hdrs_t h) { apply { pkt.emit(h.eth); pkt.emit(h.tag); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
