// Language test: actions with directional parameters (bound in the `actions`
// list and repeated verbatim in default_action) followed by directionless
// action-data parameters; actions called directly and from other actions.
#include <core.p4>

struct counters_t {
    bit<32> hits;
    bit<32> bytes;
}

control ActionParams(inout counters_t stats, inout bit<16> field,
                     in bit<32> pkt_len, out bit<8> verdict) {
    bit<16> scratch = 0;

    // Only action data.
    action set_field(bit<16> value) {
        field = value;
    }

    // One `in` and one `inout` parameter, then action data.
    action account(in bit<32> len, inout counters_t c, bit<8> code) {
        c.hits = c.hits + 1;
        c.bytes = c.bytes + len;
        verdict = code;
    }

    // An `out` parameter bound to a local variable.
    action produce(out bit<16> dest, bit<16> seed) {
        dest = seed ^ 16w0xFFFF;
    }

    // Actions may call other actions, supplying every argument.
    action account_and_set(in bit<32> len, bit<16> value) {
        account(len, stats, 8w1);
        set_field(value);
    }

    table t {
        key = { field : exact; }
        actions = {
            set_field;
            account(pkt_len, stats);
            produce(scratch);
            account_and_set(pkt_len);
        }
        default_action = account(pkt_len, stats, 8w0);
    }

    table t2 {
        key = { verdict : exact; }
        actions = {
            produce(scratch);
            NoAction;
        }
        const default_action = produce(scratch, 16w7);
    }

    apply {
        verdict = 0;
        t.apply();
        t2.apply();
        // Direct calls: all parameters, including action data, are given.
        set_field(scratch);
        account(pkt_len, stats, 8w9);
        produce(scratch, field);
    }
}
