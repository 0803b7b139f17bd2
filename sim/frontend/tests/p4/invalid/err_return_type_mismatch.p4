// Invalid: the function returns bit<8> but the returned value is a bool
// (code E0200).
#include <core.p4>

bit<8> to_code(in bit<8> v) {
    return v == 0; // error: E0200
}
