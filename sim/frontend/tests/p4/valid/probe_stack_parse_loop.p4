// Probe (header stacks in parsers, spec 8.18): a loop extracts into
// `hs.next` until an element has bos set; `hs.last` reads the element just
// extracted and `hs.lastIndex` its index; a fourth element overflows a
// stack of 3 (StackOutOfBounds, the packet still goes to ingress with the
// elements already extracted); in the control, push_front(1) shifts the
// elements up and makes element 0 invalid until setValid.
#include <core.p4>
#include <v1model.p4>

header lbl_t { bit<7> v; bit<1> bos; }
header out_t { bit<8> last_index; bit<8> last_v; bit<8> err; bit<8> count; }
struct headers_t { out_t o; lbl_t[3] hs; }
struct meta_t { bit<8> li; bit<8> lv; }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { transition next_lbl; }
    state next_lbl {
        pkt.extract(hdr.hs.next);
        meta.li = (bit<8>)hdr.hs.lastIndex;
        meta.lv = (bit<8>)hdr.hs.last.v;
        transition select(hdr.hs.last.bos) {
            1: accept;
            default: next_lbl;
        }
    }
}

control PVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        hdr.o.last_index = meta.li;
        hdr.o.last_v = meta.lv;
        hdr.o.err = (sm.parser_error == error.StackOutOfBounds) ? 8w1 :
                    (sm.parser_error == error.PacketTooShort) ? 8w2 : 8w0;
        bit<8> n = 0;
        if (hdr.hs[0].isValid()) { n = n + 1; }
        if (hdr.hs[1].isValid()) { n = n + 1; }
        if (hdr.hs[2].isValid()) { n = n + 1; }
        hdr.o.count = n;
        if (hdr.o.err == 0 && n < 3) {
            hdr.hs.push_front(1);
            hdr.hs[0].setValid();
            hdr.hs[0].v = 0x7f;
            hdr.hs[0].bos = 0;
        }
    }
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
