// Enums without an underlying type (spec 7.2.1) stored in metadata and
// local structs, compared with == and !=, passed to functions, switched
// on, and used as an exact table key; match_kind `optional` (v1model) in
// a table key.
#include <core.p4>
#include <v1model.p4>

enum Color { Red, Green, Blue }
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
struct headers_t { h_t h; }
struct st_t { Color c; bit<8> n; }
struct meta_t { Color col; st_t s; }

Color classify(in bit<8> v) {
    if (v < 0x40) { return Color.Red; }
    else if (v < 0x80) { return Color.Green; }
    return Color.Blue;
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t m,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    action set_b(bit<8> v) { hdr.h.b = v; }
    table by_color {
        key = { m.col : exact; hdr.h.d : optional; }
        actions = { set_b; NoAction; }
        const entries = {
            (Color.Red, 0x01)   : set_b(0x11);
            (Color.Red, _)      : set_b(0x10);
            (Color.Green, _)    : set_b(0x20);
        }
        default_action = set_b(0xbb);
    }
    apply {
        sm.egress_spec = 2;
        m.col = classify(hdr.h.a);
        m.s = { m.col, 1 };
        if (m.s.c == Color.Blue) { m.s.n = 3; }
        else if (m.s.c != Color.Red) { m.s.n = 2; }
        switch (m.col) {
            Color.Red: { hdr.h.c = 0xc0; }
            Color.Green:
            Color.Blue: { hdr.h.c = 0xc1; }
        }
        by_color.apply();
        hdr.h.a = m.s.n;
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
