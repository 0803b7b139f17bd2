// Language test: table keys that are expressions — slices, masks with `&`,
// isValid() results, concatenations, casts and constants — with @name
// annotations giving control-plane names to the complex ones, plus `size`.
#include <core.p4>

header ip_h {
    bit<32> src;
    bit<32> dst;
    bit<8>  proto;
}

header port_h {
    bit<16> sport;
    bit<16> dport;
}

struct key_headers_t {
    ip_h   ip;
    port_h ports;
}

control KeyExprs(inout key_headers_t h, out bit<8> cls) {
    action set_class(bit<8> c) {
        cls = c;
    }

    table classify {
        key = {
            h.ip.dst[31:24]                 : exact;
            h.ip.src & 32w0xFFFF_0000       : ternary @name("src_prefix16");
            h.ports.isValid()               : exact;
            h.ports.sport ++ h.ports.dport  : ternary @name("port_pair");
            (bit<16>)h.ip.proto             : exact @name("proto16");
        }
        actions = { set_class; NoAction; }
        size = 256;
        default_action = NoAction();
    }

    apply {
        cls = 0;
        classify.apply();
    }
}
