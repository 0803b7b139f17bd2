// Invalid: an #endif with no open #if (code E0021).
#include <core.p4>

const bit<8> VALUE = 1;
#endif // error: E0021

control C(inout bit<8> x) {
    apply { x = VALUE; }
}
