// Language test: the conditional operator ?:, struct-valued expressions
// {f = v, ...} (with and without an explicit type), tuple expressions
// {a, b} assigned to tuples, structs and headers, and tuple field access.
#include <core.p4>

struct point_t {
    bit<16> x;
    bit<16> y;
}

struct segment_t {
    point_t from;
    point_t to;
}

header coord_h {
    bit<16> x;
    bit<16> y;
}

extern void record<T>(in T data);

control Compound(inout point_t p, inout coord_h c, in bool pick_first,
                 out bit<16> chosen) {
    apply {
        chosen = pick_first ? p.x : p.y;
        bit<16> nested = p.x > p.y ? (p.x > 100 ? 16w100 : p.x) : p.y;

        point_t origin = { x = 0, y = 0 };
        point_t corner = { 16w10, 16w20 };                 // tuple initialiser
        segment_t seg = { from = origin, to = (point_t){ x = 5, y = nested } };
        p = (point_t){ y = corner.y, x = corner.x };       // fields in any order
        p = seg.to;

        c = { x = p.x, y = p.y };                          // also makes c valid
        c = { 16w1, 16w2 };

        tuple<bit<16>, bool, point_t> t = { chosen, pick_first, origin };
        bit<16> first = t[0];
        point_t third = t[2];
        if (t[1]) {
            chosen = first + third.y;
        }

        record({ p.x, c.y });
        record((point_t){ x = 1, y = 2 });
        record<segment_t>(seg);
    }
}
