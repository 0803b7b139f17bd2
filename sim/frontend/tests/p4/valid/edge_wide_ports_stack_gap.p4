// STF rule: ports are 9-bit values, so STF ports above 255 reach ingress_port
// whole and egress_spec can name them. Emitting a header stack emits its
// valid elements in index order and skips invalid ones, even in the middle.
#include <core.p4>
#include <v1model.p4>

header op_t {
    bit<8>  op;
    bit<16> inport;
}

header e_t {
    bit<8> v;
}

struct headers_t {
    op_t   op;
    e_t[3] s;
}

struct meta_t { }

parser EdgeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.op);
        pkt.extract(hdr.s.next);
        pkt.extract(hdr.s.next);
        pkt.extract(hdr.s.next);
        transition accept;
    }
}

control EdgeVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EdgeIngress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    apply {
        hdr.op.inport = (bit<16>)sm.ingress_port;
        sm.egress_spec = sm.ingress_port + 1;
        if (hdr.op.op == 1) {
            hdr.s[1].setInvalid();
        } else if (hdr.op.op == 2) {
            hdr.s[0].setInvalid();
            hdr.s[2].setInvalid();
        }
    }
}

control EdgeEgress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply { }
}

control EdgeCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EdgeDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.op);
        pkt.emit(hdr.s);
    }
}

V1Switch(EdgeParser(), EdgeVerify(), EdgeIngress(), EdgeEgress(), EdgeCompute(),
         EdgeDeparser()) main;
