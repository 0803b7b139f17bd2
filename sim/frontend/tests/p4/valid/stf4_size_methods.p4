// STF rule (P4_16 spec 9 compile-time size determination): minSizeInBits()
// counts a varbit field as 0 bits and maxSizeInBits() at its maximum, no
// matter how many bits the packet's header holds; *InBytes() is
// (bits + 7) >> 3; a struct, header or tuple sums its fields (bool = 1 bit,
// a serializable enum its underlying width); a stack is N times its
// element; a header union is the max over its members; on a type name (a
// typedef or a `type`) the methods apply to the underlying type. The
// receiver is not evaluated.
#include <core.p4>
#include <v1model.p4>

enum bit<12> E12 { X = 1 }
type bit<20> T20;
typedef bit<7> B7;

header v_t {
    bit<8>     len;
    varbit<40> data;
}
header a_t { bit<16> v; }
header_union u_t {
    a_t a;
    v_t v;
}
struct odd_t {
    bit<3>  a;
    bit<10> b;
    bool    c;
}
struct mix_t {
    E12    e;
    odd_t  o;
    a_t[3] st;
}
header out_t {
    bit<8> v_min;     // 8
    bit<8> v_max;     // 48
    bit<8> v_minb;    // 1
    bit<8> v_maxb;    // 6
    bit<8> odd_min;   // 14
    bit<8> odd_minb;  // 2
    bit<8> u_min;     // 16
    bit<8> u_max;     // 48
    bit<8> mix;       // 12 + 14 + 48 = 74
    bit<8> t20;       // 20
    bit<8> b7b;       // 1
    bit<8> tup;       // 8 + 1 + 7 = 16
}
struct headers_t {
    v_t   v;
    u_t   u;
    out_t o;
}
struct meta_t { }

parser SzParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.v, (bit<32>)pkt.lookahead<bit<8>>() * 8);
        transition accept;
    }
}

control SzVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control SzIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        odd_t od = { 1, 2, true };
        mix_t mx;
        tuple<bit<8>, bool, B7> tp = { 1, false, 3 };
        hdr.o.setValid();
        hdr.o.v_min = (bit<8>)hdr.v.minSizeInBits();
        hdr.o.v_max = (bit<8>)hdr.v.maxSizeInBits();
        hdr.o.v_minb = (bit<8>)hdr.v.minSizeInBytes();
        hdr.o.v_maxb = (bit<8>)hdr.v.maxSizeInBytes();
        hdr.o.odd_min = (bit<8>)od.minSizeInBits();
        hdr.o.odd_minb = (bit<8>)od.minSizeInBytes();
        hdr.o.u_min = (bit<8>)hdr.u.minSizeInBits();
        hdr.o.u_max = (bit<8>)hdr.u.maxSizeInBits();
        hdr.o.mix = (bit<8>)mx.maxSizeInBits();
        hdr.o.t20 = (bit<8>)T20.minSizeInBits();
        hdr.o.b7b = (bit<8>)B7.maxSizeInBytes();
        hdr.o.tup = (bit<8>)tp.minSizeInBits();
        sm.egress_spec = 2;
    }
}

control SzEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control SzCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control SzDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.v);
        pkt.emit(hdr.o);
    }
}

V1Switch(SzParser(), SzVerify(), SzIngress(), SzEgress(), SzCompute(),
         SzDeparser()) main;
