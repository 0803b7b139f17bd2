// STF rule: every emit() call in the deparser appends the header if it is
// valid, so emitting the same valid header twice puts it in the packet
// twice (with the same bytes); emitting an invalid header, twice or not,
// adds nothing.
#include <core.p4>
#include <v1model.p4>

header a_t {
    bit<8>  op;
    bit<16> v;
}

header b_t {
    bit<8> w;
}

struct headers_t {
    a_t a;
    b_t b;
}

struct meta_t { }

parser EmParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.a);
        pkt.extract(hdr.b);
        transition accept;
    }
}

control EmVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EmIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        if (hdr.a.op == 1) {
            hdr.b.setInvalid();
        } else if (hdr.a.op == 2) {
            hdr.a.setInvalid();
        }
    }
}

control EmEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control EmCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EmDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
    }
}

V1Switch(EmParser(), EmVerify(), EmIngress(), EmEgress(), EmCompute(),
         EmDeparser()) main;
