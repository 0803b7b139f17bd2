// Warning: an action parameter that the body never uses (code W0001), as
// p4c's RemoveUnusedDeclarations reports ("'port' is unused"); `@unused`
// on a parameter silences it.
#include <core.p4>

control C(inout bit<8> v) {
    action set(bit<8> value, bit<9> port) { // warning: W0001
        v = value;
    }
    action keep(@unused bit<9> port) { }
    table t {
        key = { v : exact; }
        actions = { set; keep; }
    }
    apply { t.apply(); }
}

control Top(inout bit<8> v);
package Pkg(Top t);
Pkg(C()) main;
