// The accepted forms of the annotations p4c checks: `@name`, `@deprecated`
// and `@noWarn` with one string literal (`@name(".x")` is a top-level
// name); `@match` with one match kind on a value set's key field; the same
// unstructured annotation repeated on one declaration (they accumulate);
// distinct structured annotations on one declaration, and the same one on
// different declarations; structured values that are literals, constant
// expressions, or local `int`, `bool` and `string` constants.
#include <core.p4>

@deprecated("call g2() instead")
extern void g(in bit<8> x);

@noWarn("unused")
@name(".top_action")
action top_action() {}

@doc(1) @doc(2) @doc("three")
struct key_t {
    bit<8> proto;
    @match(ternary) bit<16> port;
    @match(.exact) bit<8> flags;
}

@layout[width = 16, signed = false]
@owner["team", 7]
header h_t {
    @layout[width = 8] bit<8> a;
    bit<16> b;
}

struct headers_t {
    h_t h;
    key_t k;
}

parser P(packet_in pkt, out headers_t hdr) {
    @name("ports") value_set<key_t>(4) ports;
    state start {
        pkt.extract(hdr.h);
        transition select(hdr.k.proto, hdr.k.port, hdr.k.flags) {
            ports: accept;
            default: reject;
        }
    }
}

control C(inout headers_t hdr) {
    const int LIMIT = 3;
    const bool ON = true;
    const string TAG = "c";

    @name("C.set") @range[lo = 0, hi = LIMIT * 2] @flags[ON, TAG, 1 == 2]
    action set(@name("value") bit<8> v) {
        hdr.h.a = v;
    }

    @name("C.t") @sizing[max = LIMIT + 1]
    table t {
        key = {
            hdr.h.b : exact @name("b");
        }
        actions = { set; @defaultonly NoAction; }
        default_action = NoAction();
    }

    apply {
        t.apply();
    }
}
