// Language test: name resolution without shadowing — declaration before use,
// lexical scoping in nested and sibling blocks, the dot prefix `.name` that
// always refers to the top level, and keywords that may be used as
// identifiers (apply, key, actions, state, entries, type, priority).
// (Shadowing itself is in warn/shadowing.p4, since it draws a warning.)
#include <core.p4>

const bit<8> level = 1;
const bit<4> width = 4;

header kw_h {
    bit<8> apply;
    bit<8> key;
    bit<8> actions;
    bit<8> state;
    bit<8> entries;
    bit<8> type;
    bit<8> priority;
}

action reset_value(inout bit<8> v) {
    v = 0;
}

control Scopes(inout bit<8> value, inout kw_h kw) {
    const bit<8> step = 2;

    apply {
        value = .level;                     // the top-level constant
        value = value + step;
        {
            bit<8> inner = 3;               // visible only in this block
            value = value + inner + .level;
        }
        {
            bit<8> inner = 4;               // a sibling block may reuse the name
            value = value + inner;
        }
        .reset_value(kw.priority);          // a top-level action, dot-prefixed
        bit<4> w = .width;
        value = value + (bit<8>)w;

        kw.apply = kw.key + kw.actions;
        kw.state = kw.entries ^ kw.type ^ kw.priority;
    }
}
