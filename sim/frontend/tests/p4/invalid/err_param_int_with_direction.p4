// Invalid: an `int` parameter with a direction (code E0214).
#include <core.p4>

bit<8> scale(in int factor, in bit<8> x) { // error: E0214
    return x;
}
