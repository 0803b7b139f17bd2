// Language test: isValid / setValid / setInvalid on headers, header stack
// elements and header union members, isValid on a whole header union, and
// copying headers (which copies the validity bit).
#include <core.p4>

header a_h { bit<8> x; }
header b_h { bit<16> y; }

header_union ab_u {
    a_h a;
    b_h b;
}

struct hs_t {
    a_h     first;
    a_h     second;
    a_h[2]  stack;
    ab_u    u;
}

control Validity(inout hs_t h, out bit<4> summary) {
    apply {
        summary = 0;
        if (h.first.isValid()) {
            summary = summary | 1;
            h.second = h.first;                 // second becomes valid too
        } else {
            h.second.setInvalid();
        }
        if (!h.stack[0].isValid()) {
            h.stack[0].setValid();
            h.stack[0].x = 1;
        }
        if (h.u.isValid()) {
            summary = summary | 2;
        }
        if (h.u.a.isValid()) {
            h.u.b.setValid();                   // switches the union to member b
            h.u.b.y = 16w0xBEEF;
        } else if (h.u.b.isValid()) {
            h.u.a = h.first;                    // assigning a member makes it the valid one
        }
        if (h.u.b.isValid() || h.stack[1].isValid()) {
            summary = summary | 4;
        }
    }
}
