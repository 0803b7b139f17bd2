// Language test: `const entries` with every keyset form — plain values,
// ternary masks `&&&`, ranges `..`, the don't-care `_`, tuples of keys,
// actions with action data, an empty entry list, and `const default_action`.
#include <core.p4>

match_kind { range }

header h_t {
    bit<8>  e;
    bit<16> t;
    bit<32> addr;
    bit<16> port;
}

control Entries(inout h_t h, inout bit<9> out_port) {
    action a() {
        out_port = 0;
    }
    action a_params(bit<9> x) {
        out_port = x;
    }

    table t_exact_ternary {
        key = {
            h.e : exact;
            h.t : ternary;
        }
        actions = { a; a_params; }
        const default_action = a();
        const entries = {
            (0x11, 0x0800 &&& 0xFF00)  : a_params(7);
            (0x11, 0x86DD)             : a_params(8);
            (0x2A, 0x8000 &&& 0x8000)  : a_params(9);
            (0x2B, _)                  : a_params(5);
            (8w0x3C, 16w0 &&& 16w0)    : a();
        }
    }

    table t_lpm {
        key = { h.addr : lpm; }
        actions = { a; a_params; }
        default_action = a();
        const entries = {
            0x0A000000 &&& 0xFF000000 : a_params(10);
            0xC0A80100 &&& 0xFFFFFF00 : a_params(11);
            32w0x01020304             : a_params(12);
        }
    }

    table t_range {
        key = {
            h.port : range;
            h.e    : exact;
        }
        actions = { a; a_params; }
        default_action = a();
        const entries = {
            (0 .. 1023, 6)          : a_params(20);
            (16w1024 .. 16w49151, _) : a_params(21);
            (_, 17)                 : a();
        }
    }

    table t_single_key {
        key = { h.t : exact; }
        actions = { a_params; NoAction; }
        default_action = NoAction();
        const entries = {
            0x0800 : a_params(30);
            0x86DD : a_params(31);
        }
    }

    table t_empty_entries {
        key = { h.e : exact; }
        actions = { a; }
        default_action = a();
        const entries = { }
    }

    apply {
        t_exact_ternary.apply();
        t_lpm.apply();
        t_range.apply();
        t_single_key.apply();
        t_empty_entries.apply();
    }
}
