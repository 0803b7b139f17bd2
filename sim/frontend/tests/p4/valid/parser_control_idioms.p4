// Language test: ifs and stack next/last in parser states, bool/error select
// keys, union stacks, generic methods with explicit types, @optional params.
#include <core.p4>
#include <v1model.p4>
header a_t { bit<8> x; }
header b_t { bit<16> y; }
header_union ab_t { a_t a; b_t b; }
struct hdr_t { a_t a; ab_t[2] us; a_t[4] st; }
struct m_t { bool f; error e; bit<32> n; }
extern Ext { Ext(); T get<T>(in T d); void put<T>(in T v, @optional in bit<8> tag); }
parser P(packet_in pk, out hdr_t h, inout m_t m, inout standard_metadata_t sm) {
    Ext() ext;
    state start {
        pk.extract(h.a);
        if (h.a.x == 0) { m.f = true; } else { m.f = false; }
        h.st.next.x = 1;
        transition select(h.a.isValid(), m.f) {
            (true, true): two;
            (false, _): reject;
            default: three;
        }
    }
    state two { pk.extract(h.st.next); transition select(h.st.last.x) { 0: two; default: three; } }
    state three {
        m.n = ext.get<bit<32>>(32w5);
        ext.put(8w1);
        ext.put(v = 8w1, tag = 2);
        transition select(sm.parser_error) { error.NoError: accept; error.PacketTooShort: reject; default: accept; }
    }
}
control I(inout hdr_t h, inout m_t m, inout standard_metadata_t sm) {
    action a(in bit<8> v, bit<8> w) { h.a.x = v + w; }
    table t { key = { m.e: exact; m.f: exact; h.us[0].a.isValid(): exact; } actions = { a(h.a.x); } }
    apply {
        if (h.us[1].isValid()) { h.us[1].b.y = 1; }
        switch (t.apply().action_run) { a: { exit; } }
        bit<32> big = 1 << 31;
        bit<8> wrapped = 8w0 - 1;
        int<8> neg = -5;
        if (neg < -3 && (bit<8>)(-1) == 255 && ~8w0 == 8w255) { m.n = big; }
        h.st.pop_front(2);
        m.n = h.st.size; // `lastIndex` is for parsers only (p4c refuses it here)
        log_msg("n={} x={}", { m.n, h.a.x });
    }
}
control E(inout hdr_t h, inout m_t m, inout standard_metadata_t sm) { apply {} }
control V(inout hdr_t h, inout m_t m) { apply {} }
control D(packet_out b, in hdr_t h) { apply { b.emit(h); } }
V1Switch(P(), V(), I(), E(), V(), D()) main;
