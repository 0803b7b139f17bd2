// Invalid: a constructor call inside an action (code E0300).
#include <core.p4>

extern Stamp { Stamp(); void mark(); }

control C() {
    action a() {
        Stamp().mark(); // error: E0300
    }
    apply { a(); }
}
