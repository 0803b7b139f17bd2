// Language test: `return` in actions, controls and functions (with and
// without a value), and `exit` in actions and control bodies.
#include <core.p4>

bit<8> classify(in bit<8> ttl) {
    if (ttl == 0) {
        return 0;
    } else if (ttl < 64) {
        return 1;
    }
    return 2;
}

void clamp(inout bit<8> v, in bit<8> limit) {
    if (v <= limit) {
        return;
    }
    v = limit;
}

control Inner(inout bit<8> v) {
    action bail() {
        v = 0xEE;
        exit;
    }
    action early() {
        if (v == 1) {
            return;
        }
        v = v + 1;
    }
    table t {
        key = { v : exact; }
        actions = { bail; early; }
        default_action = early();
    }
    apply {
        t.apply();
        if (v == 0x10) {
            return;
        }
        v = v + 2;
    }
}

control Outer(inout bit<8> v, inout bit<8> ttl) {
    Inner() inner;
    apply {
        clamp(ttl, 200);
        v = classify(ttl);
        inner.apply(v);
        if (v == 0xEE) {
            exit;
        }
        v = v + 1;
    }
}
