// Invalid: a constant is used where a type is expected (code E0102).
#include <core.p4>

const bit<8> WIDTH = 8;

struct meta_t {
    bit<8> ok_field;
    WIDTH  bad_field; // error: E0102
}
