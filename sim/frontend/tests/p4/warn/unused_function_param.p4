// Warning: a function parameter that the body never uses (code W0001).
#include <core.p4>

bit<8> twice(in bit<8> x, in bit<8> scale) { // warning: W0001
    return x + x;
}

control C(inout bit<8> v) {
    apply { v = twice(v, 2); }
}

control Top(inout bit<8> v);
package Pkg(Top t);
Pkg(C()) main;
