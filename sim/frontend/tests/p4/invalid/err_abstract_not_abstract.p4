// Invalid: the initialiser implements a method that is not abstract
// (code E0213).
#include <core.p4>

extern Counter2 {
    Counter2();
    abstract void overflow();
    void tick();
}

control C() {
    Counter2() c = {
        void overflow() { }
        void tick() { } // error: E0213
    };
    apply { c.tick(); }
}
