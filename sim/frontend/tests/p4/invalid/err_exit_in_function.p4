// Invalid: `exit` is not allowed inside a function (code E0300).
#include <core.p4>

bit<8> checked(in bit<8> v) {
    if (v == 0) {
        exit; // error: E0300
    }
    return v;
}
