// Language test: packet_out.emit on a header, a header stack, a header
// union, a struct of headers (emitted field by field), and nested structs.
#include <core.p4>

header a_h { bit<8> a; }
header b_h { bit<16> b; }

header_union ab_u {
    a_h a;
    b_h b;
}

struct inner_headers_t {
    a_h    first;
    b_h[2] pair;
}

struct all_headers_t {
    a_h             top;
    inner_headers_t inner;
    ab_u            choice;
    b_h             last;
}

control EmitAll(packet_out pkt, in all_headers_t hdr) {
    apply {
        pkt.emit(hdr.top);          // header
        pkt.emit(hdr.inner.pair);   // header stack
        pkt.emit(hdr.choice);       // header union
        pkt.emit(hdr.inner);        // struct of headers
        pkt.emit(hdr);              // nested structs
    }
}
