// Header unions: `u.isValid()` is true when any member is; setValid on one
// member invalidates the other; `setInvalid` on the valid member leaves the
// union invalid; emitting the union emits its valid member only.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8> op;
    bit<8> flags;
}

header a_t {
    bit<8> x;
}

header b_t {
    bit<16> y;
}

header_union u_t {
    a_t a;
    b_t b;
}

struct headers_t {
    in_t i;
    u_t  u;
}

struct meta_t {
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta,
         inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition select(hdr.i.op) {
            1: get_a;
            2: get_b;
            default: accept;
        }
    }
    state get_a {
        pkt.extract(hdr.u.a);
        transition accept;
    }
    state get_b {
        pkt.extract(hdr.u.b);
        transition accept;
    }
}

control V(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control I(inout headers_t hdr, inout meta_t meta,
          inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        bit<8> f = 0;
        if (hdr.u.isValid()) { f = f | 8w0x10; }
        if (hdr.u.a.isValid()) {
            hdr.u.b.setValid();
            hdr.u.b.y = 16w0xbbbb;
        } else if (hdr.u.b.isValid()) {
            hdr.u.b.setInvalid();
        } else {
            hdr.u.a.setValid();
            hdr.u.a.x = 8w0xaa;
        }
        if (hdr.u.isValid()) { f = f | 8w0x01; }
        if (hdr.u.a.isValid()) { f = f | 8w0x02; }
        if (hdr.u.b.isValid()) { f = f | 8w0x04; }
        hdr.i.flags = f;
    }
}

control E(inout headers_t hdr, inout meta_t meta,
          inout standard_metadata_t sm) {
    apply { }
}

control C(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control D(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr);
    }
}

V1Switch(P(), V(), I(), E(), C(), D()) main;
