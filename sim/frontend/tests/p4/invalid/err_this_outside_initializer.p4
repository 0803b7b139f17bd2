// Invalid: `this` outside the implementation of an abstract method
// (code E0300).
#include <core.p4>

extern Tracker { Tracker(); bit<8> level(); }

control C(out bit<8> r) {
    Tracker() t;
    apply {
        r = this.level(); // error: E0300
    }
}
