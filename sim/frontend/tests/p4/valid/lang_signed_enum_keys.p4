// Signed and enum values at the table boundary: an int<8> header field as
// an exact key (STF writes its two's-complement bits), a serializable enum
// field as a key with const entries naming enum members, an enum action
// parameter, signed comparisons and shifts by run-time amounts, a cast of
// int<8> to bit<16> (sign-extends first, then reinterprets).
#include <core.p4>
#include <v1model.p4>

enum bit<8> Kind { X = 1, Y = 2, Z = 3 }

header in_t { int<8> s; Kind k; bit<8> sh; }
header out_t { bit<8> skey; bit<8> ekey; bit<8> cmp; bit<8> ashr; bit<16> wide; bit<8> param; }
struct headers_t { in_t i; out_t o; }
struct meta_t { }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    action s_hit(bit<8> v) { hdr.o.skey = v; }
    table t_signed {
        key = { hdr.i.s : exact; }
        actions = { s_hit; NoAction; }
        const entries = { -1 : s_hit(0x11); 5 : s_hit(0x15); }
        default_action = NoAction();
    }
    action e_hit(bit<8> v, Kind back) { hdr.o.ekey = v; hdr.o.param = (bit<8>)back; }
    table t_enum {
        key = { hdr.i.k : exact; }
        actions = { e_hit; NoAction; }
        const entries = { Kind.Y : e_hit(0x22, Kind.Z); }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        t_signed.apply();
        t_enum.apply();
        bit<8> cmp = 0;
        if (hdr.i.s < 0) { cmp = cmp | 1; }
        if (hdr.i.s > -8s3) { cmp = cmp | 2; }
        if ((bit<8>)hdr.i.s > 8w0x7f) { cmp = cmp | 4; }
        hdr.o.cmp = cmp;
        hdr.o.ashr = (bit<8>)(hdr.i.s >> hdr.i.sh);
        hdr.o.wide = (bit<16>)(int<16>)hdr.i.s;
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.o); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
