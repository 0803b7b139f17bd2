// Warning: an extern instance that is never referenced (code W0001).
#include <core.p4>

extern Stamp { Stamp(); void mark(); }

control C() {
    Stamp() used;
    Stamp() idle; // warning: W0001
    apply { used.mark(); }
}

control Top();
package Pkg(Top t);
Pkg(C()) main;
