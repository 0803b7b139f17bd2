// STF rule (P4_16 spec 8.5/8.6 bit and int operations, 8.7 concatenation):
// comparisons on int<W> are signed (0x7f > 0x80), on bit<W> unsigned; the
// result of `++` takes the signedness of its LEFT operand (int<8> ++ bit<8>
// is int<16>, bit<8> ++ int<8> is bit<16>), and `>>` on it is arithmetic
// or logical accordingly; int<W> subtraction wraps; saturating |-| on
// int<8> clamps to -128..127.
#include <core.p4>
#include <v1model.p4>

header in_t {
    int<8> a;
    int<8> b;
}
header out_t {
    bit<8>  flags;
    bit<16> sl;    // (bit<16>)((a ++ (bit<8>)b) >> 4)
    bit<16> ul;    // ((bit<8>)a ++ b) >> 4
    int<8>  diff;  // a - b
    int<8>  sat;   // a |-| b
}
struct headers_t {
    in_t  i;
    out_t o;
}
struct meta_t { }

parser ScParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control ScVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control ScIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        int<8> a = hdr.i.a;
        int<8> b = hdr.i.b;
        bit<8> f = 0;
        if (a < b) { f = f | 0x80; }
        if (a <= b) { f = f | 0x40; }
        if (a > b) { f = f | 0x20; }
        if (a >= b) { f = f | 0x10; }
        if ((bit<8>)a < (bit<8>)b) { f = f | 0x08; }
        if (a == b) { f = f | 0x04; }
        if ((a ++ (bit<8>)b) < 0) { f = f | 0x02; }
        if ((bit<8>)a ++ b > 16w0x7fff) { f = f | 0x01; }
        hdr.o.setValid();
        hdr.o.flags = f;
        hdr.o.sl = (bit<16>)((a ++ (bit<8>)b) >> 4);
        hdr.o.ul = ((bit<8>)a ++ b) >> 4;
        hdr.o.diff = a - b;
        hdr.o.sat = a |-| b;
        sm.egress_spec = 2;
    }
}

control ScEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control ScCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control ScDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(ScParser(), ScVerify(), ScIngress(), ScEgress(), ScCompute(),
         ScDeparser()) main;
