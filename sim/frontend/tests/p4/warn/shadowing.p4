// Warning: declarations that hide a declaration of the same name in an
// enclosing scope are legal but draw W0002; `.name` still reaches the
// top-level declaration.
#include <core.p4>

const bit<8> level = 1;

action reset_global(inout bit<8> v) {
    v = 0;
}

control Scopes(inout bit<8> value) {
    const bit<8> level = 2; // warning: W0002

    action reset_global(inout bit<8> v) {
        v = 0xFF;
    }

    apply {
        value = level;                      // the control's constant: 2
        value = value + .level;             // the top-level constant: 1
        {
            bit<8> level = 3;               // hides the control's constant
            value = value + level;
        }
        reset_global(value);                // the control's action
        .reset_global(value);               // the top-level action
    }
}
