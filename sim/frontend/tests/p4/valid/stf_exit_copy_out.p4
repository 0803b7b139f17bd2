// STF rule: `exit` ends the current action or control and every control
// that called it, but the copy-out of out/inout parameters of all those
// blocks still happens (P4_16 spec, exit statement; p4c inserts the
// copy-out before each exit). So writes made before an exit, through a
// nested control's or an action's inout parameters, are kept.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> a;   // written by the nested control
    bit<8> b;   // written through the action's inout parameter
    bit<8> c;   // written by ingress before and after the calls
}

struct headers_t {
    h_t h;
}

struct meta_t { }

control Inner(inout headers_t hdr) {
    apply {
        hdr.h.a = 0x11;
        if (hdr.h.op == 1) {
            exit;
        }
        hdr.h.a = 0x22;
    }
}

parser XcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control XcVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control XcIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    Inner() inner;

    action set_and_exit(inout bit<8> x) {
        x = 0x33;
        exit;
    }

    apply {
        sm.egress_spec = 2;
        hdr.h.c = 0x01;
        if (hdr.h.op == 2) {
            set_and_exit(hdr.h.b);
        }
        inner.apply(hdr);
        hdr.h.c = 0x02;
    }
}

control XcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control XcCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control XcDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(XcParser(), XcVerify(), XcIngress(), XcEgress(), XcCompute(),
         XcDeparser()) main;
