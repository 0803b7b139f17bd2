// What p4c accepts next to the cast, parameter and table-property rules of
// the invalid/ programs: a serializable enum widened as its underlying type,
// a `type` widened through its base, an untyped constant cast to a `type`,
// priority properties p4c never reads (no entries, or `const` entries), a
// zero priority_delta, and @optional on extern parameters.
#include <core.p4>
enum bit<8> Kind { A = 1, B = 2 }
enum bit<8> Other { C = 1 }
type bit<8> Tag_t;
extern void note(@optional in bit<8> level);
control C(inout bit<16> x, inout bit<8> y) {
    action a() { }
    table no_entries {
        key = { y : ternary; }
        actions = { a; }
        largest_priority_wins = 1;
        priority_delta = -1;
    }
    table constant {
        key = { y : ternary; }
        actions = { a; }
        priority_delta = -1;
        const entries = { 1 &&& 0xff : a(); }
    }
    table zero_delta {
        key = { y : ternary; }
        actions = { a; }
        priority_delta = 0;
        entries = { 1 &&& 0xff : a(); 2 &&& 0xff : a(); }
    }
    apply {
        Tag_t t = (Tag_t) y;
        x = (bit<16>) Kind.B + (bit<16>) t;
        Other o = (Other) Kind.A;
        Tag_t five = (Tag_t) 5;
        if (t == five && o == Other.C) { note(); }
        no_entries.apply();
        constant.apply();
        zero_delta.apply();
    }
}
