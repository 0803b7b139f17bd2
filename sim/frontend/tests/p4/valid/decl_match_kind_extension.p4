// Language test: declaring additional match kinds (as architecture files do)
// and using them, together with the core ones, as table key match kinds.
#include <core.p4>

match_kind {
    longest_suffix,
    fuzzy,
}

control Matcher(inout bit<32> addr, inout bit<8> tag) {
    action set_tag(bit<8> t) {
        tag = t;
    }

    table suffix_table {
        key = {
            addr : longest_suffix;
            tag  : fuzzy;
        }
        actions = { set_tag; NoAction; }
        default_action = NoAction();
    }

    table core_kinds {
        key = {
            addr      : lpm;
            tag       : ternary;
            addr[7:0] : exact @name("addr_low");
        }
        actions = { set_tag; NoAction; }
        default_action = NoAction();
    }

    apply {
        suffix_table.apply();
        core_kinds.apply();
    }
}
