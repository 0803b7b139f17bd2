// Invalid: a header field of a struct that holds a new type; a struct in a
// header may hold only bit<W>, int<W>, bool and serializable enums (code E0211).
#include <core.p4>

type bit<16> Port_t;
struct ports_t { Port_t src; Port_t dst; }
header l4_h {
    ports_t ports; // error: E0211
    bit<16> len;
}
