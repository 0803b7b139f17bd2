// Invalid: an initialiser block for an extern without abstract methods
// (code E0213).
#include <core.p4>

extern Plain { Plain(); void go(); }

control C() {
    Plain() p = { // error: E0213
        void go() { }
    };
    apply { p.go(); }
}
