// Language test: header and struct declarations — empty headers, signed and
// serializable-enum fields, a varbit field, structs nesting structs,
// headers, header stacks and header unions, and trailing commas in enums.
#include <core.p4>

enum bit<16> ether_kind_t {
    IPV4 = 0x0800,
    ARP  = 0x0806,
    IPV6 = 0x86dd,   // trailing comma is allowed (P4 1.2.4)
}

header empty_h { }

header signed_fields_h {
    int<8>  delta;
    int<16> offset;
    bit<1>  flag;
    bit<7>  reserved;
}

header typed_eth_h {
    bit<48>      dst;
    bit<48>      src;
    ether_kind_t kind;
}

header var_h {
    bit<8>      length;
    varbit<256> payload;
}

header_union any_l3_u {
    signed_fields_h s;
    empty_h         e;
}

struct inner_t {
    bit<4> a;
    bool   b;
}

struct outer_t {
    inner_t             inner;
    typed_eth_h         eth;
    signed_fields_h[3]  stack;
    any_l3_u            l3;
    var_h               var;
    error               err;
}

struct empty_t { }

control UseDecls(inout outer_t o, inout empty_t e) {
    apply {
        o.inner.a = 4w3;
        o.inner.b = !o.inner.b;
        if (o.eth.isValid() && o.eth.kind == ether_kind_t.IPV4) {
            o.stack[0].delta = -8s1;
            o.stack[1].offset = o.stack[0].offset + 16s5;
        }
        if (o.l3.s.isValid()) {
            o.l3.s.flag = 1;
        }
        o.err = error.NoError;
    }
}
