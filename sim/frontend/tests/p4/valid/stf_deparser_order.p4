// STF rule: the deparser emits the valid headers in the order of its emit
// calls (not the parse order), skips invalid ones, then appends the unparsed
// payload. No padding is added.
#include <core.p4>
#include <v1model.p4>

header a_t { bit<16> v; }
header b_t { bit<8>  v; }
header c_t { bit<24> v; }

struct headers_t {
    a_t a;
    b_t b;
    c_t c;
}

struct meta_t { }

parser DoParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.a);
        transition select(hdr.a.v) {
            0x0001  : parse_b;
            0x0002  : parse_bc;
            default : accept;
        }
    }
    state parse_b {
        pkt.extract(hdr.b);
        transition accept;
    }
    state parse_bc {
        pkt.extract(hdr.b);
        pkt.extract(hdr.c);
        transition accept;
    }
}

control DoVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control DoIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 9;
    }
}

control DoEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control DoCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control DoDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.c);
        pkt.emit(hdr.b);
        pkt.emit(hdr.a);
    }
}

V1Switch(DoParser(), DoVerify(), DoIngress(), DoEgress(), DoCompute(),
         DoDeparser()) main;
