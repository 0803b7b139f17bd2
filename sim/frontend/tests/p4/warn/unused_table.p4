// Warning: a table that is never applied (code W0001).
#include <core.p4>

control C(in bit<8> k, inout bit<8> v) {
    action set(bit<8> x) { v = x; }
    table used { key = { k : exact; } actions = { set; NoAction; } }
    table spare { key = { k : exact; } actions = { set; NoAction; } } // warning: W0001
    apply { used.apply(); }
}

control Top(in bit<8> k, inout bit<8> v);
package Pkg(Top t);
Pkg(C()) main;
