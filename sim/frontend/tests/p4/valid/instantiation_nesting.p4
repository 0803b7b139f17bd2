// Language test: instantiations — extern instances passed as constructor
// arguments to controls, controls instantiated inside controls with
// constructor arguments, packages nested inside packages, and a `main`
// built from nested constructor calls.
#include <core.p4>

extern Tally {
    Tally(bit<32> buckets);
    void bump(in bit<32> bucket);
}

control Stage(inout bit<32> v);
package Pair(Stage first, Stage second);
package Top(Pair front, Pair back, Stage last);

control Counted(inout bit<32> v)(Tally tally, bit<32> bucket) {
    apply {
        tally.bump(bucket);
        v = v + 1;
    }
}

control Doubled(inout bit<32> v)(Tally tally) {
    Counted(tally, 32w0) inner_a;
    Counted(tally, 32w1) inner_b;
    apply {
        inner_a.apply(v);
        inner_b.apply(v);
    }
}

control Plain(inout bit<32> v) {
    apply {
        v = v << 1;
    }
}

Tally(32w16) shared_tally;

Top(Pair(Counted(shared_tally, 32w2), Doubled(shared_tally)),
    Pair(Plain(), Counted(Tally(32w4), 32w3)),
    Plain()) main;
