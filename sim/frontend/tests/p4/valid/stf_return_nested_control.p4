// STF rule: `return` ends only the innermost control (or action) it is in;
// the caller carries on after the call, and a return in ingress's apply
// block ends ingress only (egress still runs). `exit` in egress ends egress
// only: the packet is still deparsed and sent. (Exit in a nested control:
// stf_exit_copy_out.)
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> trace;
    bit<8> eg;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

control Inner(inout headers_t hdr) {
    apply {
        hdr.h.trace = hdr.h.trace | 0x01;
        if (hdr.h.op == 1) {
            return;
        }
        hdr.h.trace = hdr.h.trace | 0x02;
        hdr.h.trace = hdr.h.trace | 0x04;
    }
}

parser RnParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control RnVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RnIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    Inner() inner;

    action tail() {
        hdr.h.trace = hdr.h.trace | 0x40;
        if (hdr.h.op == 5) {
            return;
        }
        hdr.h.trace = hdr.h.trace | 0x80;
    }

    apply {
        sm.egress_spec = 2;
        inner.apply(hdr);
        hdr.h.trace = hdr.h.trace | 0x10;
        if (hdr.h.op == 3) {
            return;
        }
        hdr.h.trace = hdr.h.trace | 0x20;
        tail();
    }
}

control RnEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.eg = hdr.h.eg | 0x01;
        if (hdr.h.op == 4) {
            exit;
        }
        hdr.h.eg = hdr.h.eg | 0x02;
    }
}

control RnCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RnDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(RnParser(), RnVerify(), RnIngress(), RnEgress(), RnCompute(),
         RnDeparser()) main;
