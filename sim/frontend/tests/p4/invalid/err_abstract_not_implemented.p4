// Invalid: an instance that leaves an abstract method unimplemented
// (code E0213).
#include <core.p4>

extern Policer {
    Policer();
    abstract void on_green();
    abstract void on_red();
    void run();
}

control P() {
    Policer() p = { // error: E0213
        void on_green() { }
    };
    apply { p.run(); }
}
