// STF rule (P4_16 spec, slices and concatenation): a slice of a signed
// value is unsigned (bit<>); `++` gives a value whose signedness is the
// left operand's, so int<8> ++ bit<4> is int<12> and widens with sign
// extension, while bit<4> ++ bit<8> widens with zeros; (bit<16>)a[7:0]
// zero-extends where (int<16>)a sign-extends.
#include <core.p4>
#include <v1model.p4>

header in_t {
    int<8>  a;
    int<16> b;
}

header out_t {
    bit<8>  c1;   // a[7:4] ++ b[3:0]
    int<16> c2;   // (int<16>)(a ++ b[15:12])
    bit<16> c2u;  // (bit<16>)(b[15:12] ++ a[7:0])
    bit<8>  c3;   // a[3:0] ++ a[7:4]
    bit<16> z;    // (bit<16>)a[7:0]
    bit<16> s;    // (bit<16>)(int<16>)a
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

control ScVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ScIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.o.setValid();
        int<8> a = hdr.i.a;
        int<16> b = hdr.i.b;
        hdr.o.c1 = a[7:4] ++ b[3:0];
        hdr.o.c2 = (int<16>)(a ++ b[15:12]);
        hdr.o.c2u = (bit<16>)(b[15:12] ++ a[7:0]);
        hdr.o.c3 = a[3:0] ++ a[7:4];
        hdr.o.z = (bit<16>)a[7:0];
        hdr.o.s = (bit<16>)(int<16>)a;
    }
}

control ScEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control ScCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ScDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(ScParser(), ScVerify(), ScIngress(), ScEgress(), ScCompute(),
         ScDeparser()) main;
