// Invalid: the program reaches an #error directive (code E0022).
#include <core.p4>

#define TARGET_PORTS 48

#if TARGET_PORTS < 64
#error "this program needs at least 64 ports" // error: E0022
#endif

control C(inout bit<8> x) {
    apply { }
}
