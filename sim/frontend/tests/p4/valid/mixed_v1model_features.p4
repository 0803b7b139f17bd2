// Language test: many v1model and language features in one program: generic
// functions, stacks, unions, value sets, enum/error switches, direct calls.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<16> b; }
header opt_t { varbit<320> data; }
header_union u_t { h_t x; h_t y; }
struct S<T> { T f; bit<8> g; }
struct hdrs { h_t h; h_t[4] stk; u_t u; opt_t opt; }
struct meta { bit<16> h16; bit<8> r; bit<32> idx; S<bit<4>> s; error err; }
enum Color { Red, Green }
enum bit<8> Proto { TCP = 6, UDP = 17 }

T pick<T>(in bool c, in T a, in T b) { if (c) { return a; } return b; }
bit<8> twice(in bit<8> x) { return x + x; }
extern void gen_ext<T>(in T x);

const bit<16> A = 0x800;
const bit<16> B = A + 1;
const bool DEBUG = false;
const int W = 4;
typedef bit<(W * 2)> byte_t;

parser P(packet_in b, out hdrs h, inout meta m, inout standard_metadata_t sm) {
    value_set<bit<16>>(4) vs;
    state start {
        b.extract(h.h);
        verify(h.h.a != 0, error.NoMatch);
        transition select(h.h.b, b.lookahead<bit<8>>()) {
            (A, _): s1;
            (vs, 8w1 .. 8w5): s2;
            (0x8100 &&& 0xEFFF, default): s3;
            default: accept;
        }
    }
    state s1 { b.extract(h.stk.next); transition select(h.stk.last.a) { 0: s1; default: accept; } }
    state s2 { b.extract(h.opt, (bit<32>)(h.h.a * 8)); transition accept; }
    state s3 { b.advance(16); h.u.x.setValid(); transition accept; }
}

control Inner(inout bit<8> v)(bit<8> k) {
    apply { v = v + k; }
}

control Ing(inout hdrs h, inout meta m, inout standard_metadata_t sm) {
    Inner(8w5) inner;
    counter(32w16, CounterType.packets) c;
    register<bit<32>>(32w64) r;
    direct_counter(CounterType.bytes) dc;
    action set_port(bit<9> p) { sm.egress_spec = p; dc.count(); }
    action drop() { mark_to_drop(sm); exit; }
    action with_dir(inout bit<8> x, bit<8> y) { x = y; }
    table t {
        key = { h.h.a: exact; h.h.b: ternary @name("bee"); m.err: exact; }
        actions = { set_port; drop; with_dir(h.h.a); .NoAction; }
        default_action = drop();
        counters = dc;
        const entries = {
            (1, 0x10 &&& 0xF0, error.NoError): set_port(3);
            (_, _, _): drop();
        }
        size = 64;
    }
    apply {
        Color col = Color.Red;
        tuple<bit<8>, bool> tp = {8w1, true};
        S<bit<4>> s = { f = 1, g = 2 };
        m.s = s;
        switch (col) { Color.Red: { m.r = 1; } default: {} }
        switch (m.err) { error.NoError: {} error.NoMatch: { m.r = 2; } }
        switch (t.apply().action_run) {
            set_port:
            drop: { m.r = 3; }
            default: {}
        }
        if (t.apply().hit) { m.r = pick(true, m.r, 8w4); }
        bit<8> q = t.apply().miss ? 8w1 : 8w2;
        m.r = twice(m.r) |+| 1;
        m.h16 = m.r ++ 8w0 >> 8;
        m.h16 = m.h16 & A == 0 ? 16w1 : 16w0;
        inner.apply(m.r);
        c.count((bit<32>)sm.ingress_port);
        r.read(m.idx, 32w3);
        r.write((bit<32>)m.r, m.idx + 1);
        hash(m.h16, HashAlgorithm.crc16, 16w0, { h.h.a, h.h.b }, 32w65536);
        random(m.r, 8w0, 8w255);
        digest(1, { h.h.a, sm.ingress_port });
        clone(CloneType.I2E, 32w100);
        log_msg("r={}", { m.r });
        h.stk.push_front(1);
        h.stk[0].setValid();
        h.stk[m.r & 3].a = 1;
        if (h.u.isValid()) { h.u.y.setInvalid(); }
        gen_ext({ a = 8w1, b = true });
        Proto p = (Proto)8w6;
        if (p == Proto.TCP && h.h.a == Proto.UDP) { m.r = (bit<8>)Proto.TCP; }
        with_dir(h.h.a, 8w9);
        byte_t bt = 0;
        if (DEBUG) { bt = 1; }
        bit<8> cnt = 0;
        for (bit<8> i = 0; i < 4; i = i + 1) { cnt = cnt + i; }
        m.r = (bit<8>)(h.minSizeInBits());
    }
}
control Eg(inout hdrs h, inout meta m, inout standard_metadata_t sm) { apply { } }
control VC(inout hdrs h, inout meta m) { apply {
    verify_checksum(h.h.isValid(), { h.h.a, h.h.b }, h.h.b, HashAlgorithm.csum16);
} }
control CC(inout hdrs h, inout meta m) { apply {
    update_checksum(h.h.isValid(), { h.h.a }, h.h.b, HashAlgorithm.csum16);
} }
control D(packet_out b, in hdrs h) { apply { b.emit(h.h); b.emit(h.stk); b.emit(h.u); } }
V1Switch(P(), VC(), Ing(), Eg(), CC(), D()) main;
