// P4_16 spec (header unions): `u1 = u2` copies u2's state: its valid
// member (the member of u1 that was valid before becomes invalid), or no
// member when u2 is invalid. `u.hi = e` with e invalid is
// u.hi.setInvalid() (tested only when hi was the valid member, so the
// union becomes invalid). The deparser emits the valid member only.
// (Op 1, `u.b = valid header`, is tested in stf3_union_member_assign.)
#include <core.p4>
#include <v1model.p4>

header op_t {
    bit<8> op;
    bit<8> sel;
    bit<8> flags;
}
header a_t { bit<16> v; }
header b_t { bit<8> v; }
header_union u_t {
    a_t a;
    b_t b;
}

struct headers_t {
    op_t op;
    u_t  u;
    b_t  extra;
}
struct meta_t { }

parser UaParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.op);
        transition select(hdr.op.sel) {
            1: parse_a;
            2: parse_b;
            default: parse_extra;
        }
    }
    state parse_a { pkt.extract(hdr.u.a); transition parse_extra; }
    state parse_b { pkt.extract(hdr.u.b); transition parse_extra; }
    state parse_extra { pkt.extract(hdr.extra); transition accept; }
}

control UaVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    apply {
        u_t tmp;
        a_t no_a;
        if (hdr.op.op == 1) {
            hdr.u.b = hdr.extra;
        } else if (hdr.op.op == 2) {
            hdr.u.a = no_a;
        } else if (hdr.op.op == 3) {
            tmp.b = hdr.extra;
            hdr.u = tmp;
        } else if (hdr.op.op == 4) {
            hdr.u = tmp;
        }
        hdr.op.flags = (hdr.u.isValid() ? 8w1 : 8w0)
                     | (hdr.u.a.isValid() ? 8w2 : 8w0)
                     | (hdr.u.b.isValid() ? 8w4 : 8w0);
        sm.egress_spec = 2;
    }
}

control UaEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control UaCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control UaDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.op);
        pkt.emit(hdr.u);
        pkt.emit(hdr.extra);
    }
}

V1Switch(UaParser(), UaVerify(), Ing(), UaEgress(), UaCompute(),
         UaDeparser()) main;
