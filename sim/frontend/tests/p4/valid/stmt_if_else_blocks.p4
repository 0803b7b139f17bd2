// Language test: if / else-if / else chains, nested ifs with a dangling
// else, block statements that open new scopes, empty statements, variable
// declarations with and without initialisers, and local constants.
#include <core.p4>

control Statements(inout bit<16> a, inout bit<16> b, out bool flag) {
    bit<16> control_local;        // declared before `apply`, no initialiser
    bit<16> initialised = 16w5;

    apply {
        flag = false;
        control_local = a;
        ;                                   // empty statement
        if (a == 0) {
            b = 1;
        } else if (a == 1) {
            b = 2;
        } else if (a < 10) {
            b = 3;
        } else {
            b = 4;
        }

        if (b > 2)
            if (b > 3)
                a = a + 1;
            else                            // binds to the inner `if`
                a = a - 1;

        {
            const bit<16> LIMIT = 100;
            bit<16> tmp = a + b;
            if (tmp > LIMIT) {
                tmp = LIMIT;
            }
            {
                bit<16> deeper;             // uninitialised declaration
                deeper = tmp |-| initialised;
                b = deeper;
            }
        }

        {
            // A fresh scope may reuse a name from a sibling scope.
            bit<16> tmp = control_local;
            flag = tmp != b;
        }

        @atomic {
            a = a + b;
        }
    }
}
