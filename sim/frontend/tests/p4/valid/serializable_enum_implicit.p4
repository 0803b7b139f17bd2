// Language test: implicit conversion of serializable enum values to their
// underlying type in arithmetic, shifts, comparisons, concatenation, slice
// bounds and header stack indices, plus explicit casts back to the enum.
#include <core.p4>

enum bit<8> Width {
    Narrow = 2,
    Wide   = 6
}

enum bit<8> Port {
    Uplink   = 40,
    Downlink = 41
}

header slot_h { bit<8> v; }

struct slots_t {
    slot_h[8] slot;
}

control EnumImplicit(inout bit<8> x, inout bit<16> y, inout Width w, inout slots_t s) {
    apply {
        x = x + Width.Wide;                   // Width.Wide becomes bit<8>
        bit<8> scaled = Width.Narrow << 2;    // 8
        y = 16w3 << Width.Narrow;             // shift amount from an enum
        bit<3> low = x[Width.Narrow:0];       // slice bound from an enum
        bit<16> tagged = Port.Uplink ++ 8w0;  // concatenation with an enum
        bool uplink_higher = Port.Uplink > Width.Wide;   // both become bit<8>
        s.slot[Width.Wide].v = scaled;        // stack index from an enum
        w = (Width)(Width.Narrow + 4);        // back to the enum needs a cast
        w = (Width)(Port.Downlink - Port.Uplink);
        if (uplink_higher || low == 0 || tagged == 0) {
            x = (bit<8>)w;
        }
    }
}
