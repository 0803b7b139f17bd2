// STF rule (P4_16 spec 8.5 slices are l-values, 12.1 assignment): a slice of
// a slice is an l-value naming bits within the first slice (x[11:4][5:2] is
// x[9:6]); a compound assignment `a op= b` is `a = a op b` with `a`
// evaluated once: on a slice it wraps within the slice's width and leaves
// the other bits; on a stack element with a run-time index it updates that
// element; `<<=`, `|+|=` (saturating), `^=` and `-=` work on plain fields.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<16> x;
    bit<8>  y;
    bit<8>  z;
    bit<8>  w;
    bit<8>  i;
}
header e_t { bit<8> v; }
struct headers_t {
    h_t    h;
    e_t[3] s;
}
struct meta_t { }

parser ScParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        pkt.extract(hdr.s.next);
        pkt.extract(hdr.s.next);
        pkt.extract(hdr.s.next);
        transition accept;
    }
}

control ScVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control ScIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        hdr.h.x[11:4][5:2] = 4w0xf;
        hdr.h.y[7:4] += 1;
        hdr.h.y[3:0] ^= 4w0x5;
        hdr.h.z <<= 2;
        hdr.h.z -= 3;
        hdr.h.w |+|= 200;
        hdr.s[hdr.h.i].v += 0x10;
        hdr.s[hdr.h.i].v[1:0] |= 2w3;
        sm.egress_spec = 2;
    }
}

control ScEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control ScCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control ScDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
        pkt.emit(hdr.s);
    }
}

V1Switch(ScParser(), ScVerify(), ScIngress(), ScEgress(), ScCompute(),
         ScDeparser()) main;
