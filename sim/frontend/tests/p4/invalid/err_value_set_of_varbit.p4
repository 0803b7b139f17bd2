// Invalid: a value set of varbit values (code E0211).
#include <core.p4>

parser P(packet_in pkt) {
    value_set<varbit<16>>(2) opts; // error: E0211
    state start { transition accept; }
}
