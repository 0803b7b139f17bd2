// Language test: a control passed as a constructor argument, abstract extern
// methods, default and named arguments, a generic package with type args.
#include <core.p4>

header h_t { bit<8> a; bit<8> b; }
header_union u_t { h_t x; h_t y; }
struct hs_t { h_t h; h_t[3] stk; u_t u; }
struct key_t { @match(ternary) bit<8> a; bit<16> b; }
enum bit<4> Mode { Off = 0, On = 1 }

control CtlT(inout bit<8> v);
control Inner(inout bit<8> v) { apply { v = v + 1; } }
control Outer(inout bit<8> x)(CtlT c) {
    apply { c.apply(x); }
}

extern Virt {
    Virt();
    abstract bit<8> f(in bit<8> x);
    bit<8> run(in bit<8> x);
}

extern bit<8> ext_default(in bit<8> a, in bit<8> b = 3);
void out_fn(in bit<8> a, out bit<8> r) { r = a + 1; }

parser PT<H>(packet_in b, out H h);
control CT<H>(inout H h);
package Pkg<H>(PT<H> p, CT<H> c);

parser MyP(packet_in b, out hs_t h) {
    value_set<key_t>(8) pvs;
    state start {
        b.extract(h.h);
        b.extract(h.stk[0]);
        transition select(h.h.a, h.h.b ++ h.h.a) {
            pvs: next;
            (1, _): start;
            default: accept;
        }
    }
    state next { transition select(h.h.a) { 1 : accept; } }
}

control MyC(inout hs_t h) {
    Outer(Inner()) o;
    Virt() v = {
        bit<8> f(in bit<8> x) { return x + 1; }
    };
    action a_out(out bit<8> r) { r = 7; }
    action noop() { }
    table t {
        key = { }
        actions = { noop(); NoAction; }
        default_action = NoAction;
    }
    apply {
        o.apply(h.h.a);
        h.h.a = v.run(h.h.a);
        h.h.b = ext_default(h.h.a);
        h.h.b = ext_default(b = 1, a = 2);
        out_fn(h.h.a, h.h.b);
        a_out(h.h.b);
        h.stk[1] = h.stk[0];
        Mode m = Mode.On;
        switch (m) { Mode.Off: { } Mode.On: { h.h.a = 1; } }
        bool flag = h.h.a == 1;
        if (flag == true && h.u.isValid()) { h.u.x.a = 2; }
        h_t other = flag ? h.h : h.stk[2];
        h.h = other;
        h.h = { 8w1, 8w2 };
        if (!t.apply().hit) { exit; }
        bit<8> w = h.h.a[7:4] ++ h.h.b[3:0];
        int<8> s = -8s1;
        h.h.a = (bit<8>)s;
        h.h.a = (bit<8>)(int<8>)(-1);
        h.h.b = (bit<8>)m;
    }
}
Pkg<hs_t>(MyP(), MyC()) main;
