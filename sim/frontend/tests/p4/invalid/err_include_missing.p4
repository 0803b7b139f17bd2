// Invalid: the included file does not exist (code E0020).
#include <core.p4>
#include "definitely_not_a_real_file.p4" // error: E0020

control C(inout bit<8> x) {
    apply { }
}
