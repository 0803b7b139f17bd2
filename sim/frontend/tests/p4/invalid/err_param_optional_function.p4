// Invalid: a function parameter cannot be @optional (E0214).
#include <core.p4>
bit<8> twice(@optional in bit<8> x) { // error: E0214
    return x + x;
}
