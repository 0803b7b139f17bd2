// Invalid: an extern constructor with a repeated parameter name (code E0105).
#include <core.p4>

extern RateLimiter {
    RateLimiter(bit<32> size, bit<32> size); // error: E0105
    void check(in bit<32> index, out bool allowed);
}
