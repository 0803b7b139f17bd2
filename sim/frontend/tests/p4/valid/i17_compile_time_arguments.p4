// What p4c accepts next to the compile-time argument rules: constructor
// arguments from the enclosing control's constructor parameters and from
// constants, `_` for an out parameter of a known type, a generic `out`
// given its type argument.
#include <core.p4>
#include <v1model.p4>
const bit<32> SLOTS = 16;
extern void produce<T>(out T x);
extern void fill(out bit<8> x);
control Inner(inout bit<8> x)(bit<8> step) { apply { x = x + step; } }
control Outer(inout bit<8> x)(bit<32> size) {
    register<bit<8>>(size) slots;
    register<bit<8>>(SLOTS * 2) more;
    Inner(8w3) inner;
    apply {
        inner.apply(x);
        fill(_);
        produce<bit<16>>(_);
        slots.write(0, x);
        more.write(1, x);
    }
}
control Top(inout bit<8> x) {
    Outer(32w4) outer;
    apply { outer.apply(x); }
}
