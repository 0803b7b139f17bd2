// STF rule (P4_16 spec, assignment): assigning a struct that contains
// headers copies each header with its validity bit. Saving the whole
// headers struct in a local and assigning it back undoes later
// setValid/setInvalid calls and field writes; copying a saved invalid
// header makes the target invalid. A struct built with an initializer
// holds a copy of the header, not a reference.
#include <core.p4>
#include <v1model.p4>

header a_t {
    bit<8> op;
    bit<8> x;
}

header b_t {
    bit<8> v;
}

struct headers_t {
    a_t a;
    b_t b;
}

struct pair_t {
    a_t    h;
    bit<8> tag;
}

struct meta_t { }

parser ShParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.a);
        transition accept;
    }
}

control ShVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ShIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        headers_t saved = hdr;      // a valid, b invalid
        if (hdr.a.op == 1) {
            hdr.a.setInvalid();
            hdr.b.setValid();
            hdr.b.v = 0x99;
            hdr = saved;            // a valid again, b invalid again
        } else if (hdr.a.op == 2) {
            hdr.a.setInvalid();
            hdr.b.setValid();
            hdr.b.v = 0x99;
            hdr.b = saved.b;        // b invalid again; a stays invalid
        } else if (hdr.a.op == 3) {
            hdr.a.x = 0x55;
            hdr.b.setValid();
            hdr.b.v = 0x99;
            hdr.a = saved.a;        // x restored; b stays valid
        } else if (hdr.a.op == 4) {
            pair_t p = { hdr.a, 8w7 };
            hdr.a.x = 0x66;         // p.h keeps the old x
            hdr.b.setValid();
            hdr.b.v = p.h.x + p.tag;
        }
    }
}

control ShEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control ShCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ShDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
    }
}

V1Switch(ShParser(), ShVerify(), ShIngress(), ShEgress(), ShCompute(),
         ShDeparser()) main;
