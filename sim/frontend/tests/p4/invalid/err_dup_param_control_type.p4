// Invalid: a control type whose apply parameters share a name (code E0105).
#include <core.p4>

control Stage(inout bit<8> data, in bit<8> data); // error: E0105
