// Invalid: a function whose two parameters share a name (code E0105).
#include <core.p4>

bit<8> pick(in bit<8> a, in bool a) { // error: E0105
    return a;
}
