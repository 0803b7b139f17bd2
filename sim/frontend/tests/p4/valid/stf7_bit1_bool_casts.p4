// STF rule (P4_16 spec, casts): bit<1> and bool convert both ways (1 is
// true, 0 false); a bool expression cast to bit<1> gives 1 or 0; bit<1>
// values compare as unsigned numbers (1 > 0), and ~ on bit<1> flips it; a
// cast bool drives an if.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<1> x;
    bit<1> y;
    bit<6> pad;
}

header out_t {
    bit<1> o0;  // (bit<1>)(bool)x
    bit<1> o1;  // x == (bit<1>)true
    bit<1> o2;  // (bool)x && !(bool)y
    bit<1> o3;  // (bool)x != (bool)y
    bit<1> o4;  // x == y
    bit<1> o5;  // x > y
    bit<1> o6;  // !(bool)x
    bit<1> o7;  // ~x
}

struct headers_t {
    in_t  i;
    out_t o;
}

struct meta_t { }

parser BbParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control BbVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control BbIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        bit<1> x = hdr.i.x;
        bit<1> y = hdr.i.y;
        hdr.o.setValid();
        hdr.o.o0 = (bit<1>)(bool)x;
        hdr.o.o1 = (bit<1>)(x == (bit<1>)true);
        hdr.o.o2 = (bit<1>)((bool)x && !(bool)y);
        hdr.o.o3 = (bit<1>)((bool)x != (bool)y);
        hdr.o.o4 = (bit<1>)(x == y);
        hdr.o.o5 = (bit<1>)(x > y);
        hdr.o.o6 = (bit<1>)(!(bool)x);
        hdr.o.o7 = ~x;
        if ((bool)y) {
            sm.egress_spec = 2;
        } else {
            sm.egress_spec = 3;
        }
    }
}

control BbEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control BbCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control BbDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(BbParser(), BbVerify(), BbIngress(), BbEgress(), BbCompute(),
         BbDeparser()) main;
