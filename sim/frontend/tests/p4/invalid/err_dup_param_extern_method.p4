// Invalid: an extern method with a repeated parameter name (code E0105).
#include <core.p4>

extern Accumulator {
    Accumulator();
    void add(in bit<16> value, in bit<16> value); // error: E0105
}
