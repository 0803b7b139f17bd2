// Invalid: an extern with abstract methods instantiated without an
// initialiser block (code E0213).
#include <core.p4>

extern Visitor {
    Visitor();
    abstract void visit(in bit<8> x);
    void walk();
}

control W() {
    Visitor() v; // error: E0213
    apply { v.walk(); }
}
