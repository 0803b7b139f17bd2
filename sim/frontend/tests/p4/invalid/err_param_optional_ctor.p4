// Invalid: a control's constructor parameter cannot be @optional (E0214).
#include <core.p4>
control C(inout bit<8> x)(@optional bit<8> step) { // error: E0214
    apply { x = x + 1; }
}
