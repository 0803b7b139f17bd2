// Language test: using the result of `table.apply()` — `.hit`, `.miss` and
// `.action_run` — in if conditions, expressions and switch statements,
// including fall-through labels and a `default` label. Each table is applied
// exactly once.
#include <core.p4>

control ApplyResults(inout bit<32> key_field, inout bit<8> result) {
    action a1() { result = 1; }
    action a2() { result = 2; }
    action a3(bit<8> v) { result = v; }
    action a4() { result = 4; }

    table by_hit {
        key = { key_field : exact; }
        actions = { a1; a2; NoAction; }
        default_action = NoAction();
    }

    table by_miss {
        key = { result : exact; }
        actions = { a1; a2; }
        default_action = a1();
    }

    table by_action {
        key = { key_field : lpm; }
        actions = { a1; a2; a3; a4; NoAction; }
        default_action = NoAction();
    }

    table small {
        key = { key_field : ternary; }
        actions = { a3; NoAction; }
        default_action = NoAction();
    }

    table left {
        key = { result : ternary; }
        actions = { a1; NoAction; }
        default_action = NoAction();
    }

    table right {
        key = { key_field : exact; result : exact; }
        actions = { a2; NoAction; }
        default_action = NoAction();
    }

    apply {
        if (by_hit.apply().hit) {
            key_field = key_field + 1;
        }

        bool missed = by_miss.apply().miss;
        if (!missed) {
            result = result + 1;
        }

        switch (by_action.apply().action_run) {
            a1:                         // falls through to a2
            a2: {
                key_field = 0;
            }
            a3: {
                key_field = 3;
            }
            default: {
                key_field = 0xFFFF_FFFF;
            }
        }

        switch (small.apply().action_run) {
            a3: { result = result | 0x80; }
            NoAction: { }   // a last label without a block draws W0007
        }

        bool both = left.apply().hit && right.apply().hit;
        result = both ? 8w1 : 8w0;
    }
}
