// STF rule (P4_16 spec, copy-in/copy-out): an action's inout header
// parameter carries the whole header, validity included: field writes,
// setInvalid() and setValid() inside the action reach the argument on
// return; swapping two headers through two inout parameters moves values
// and validity (an invalid header assigned makes the target invalid).
#include <core.p4>
#include <v1model.p4>

header ctl_t { bit<8> op; }
header tag_t { bit<8> val; }

struct headers_t {
    ctl_t ctl;
    tag_t t1;
    tag_t t2;
}

struct meta_t { }

parser IhParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ctl);
        pkt.extract(hdr.t1);
        transition select(hdr.ctl.op) {
            4: accept;
            5: accept;
            default: parse_t2;
        }
    }
    state parse_t2 {
        pkt.extract(hdr.t2);
        transition accept;
    }
}

control IhVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control IhIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action add(inout tag_t t, bit<8> v) {
        t.val = t.val + v;
    }
    action kill(inout tag_t t) {
        t.setInvalid();
    }
    action grow(inout tag_t t) {
        t.setValid();
        t.val = t.val + 0x77;
    }
    action swap(inout tag_t x, inout tag_t y) {
        tag_t tmp = x;
        x = y;
        y = tmp;
    }
    apply {
        sm.egress_spec = 3;
        if (hdr.ctl.op == 1) {
            add(hdr.t1, 5);
            add(hdr.t2, 7);
        } else if (hdr.ctl.op == 2) {
            kill(hdr.t1);
        } else if (hdr.ctl.op == 3) {
            swap(hdr.t1, hdr.t2);
        } else if (hdr.ctl.op == 4) {
            swap(hdr.t1, hdr.t2);
            add(hdr.t2, 1);
        } else if (hdr.ctl.op == 5) {
            grow(hdr.t2);
        }
    }
}

control IhEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control IhCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control IhDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ctl);
        pkt.emit(hdr.t1);
        pkt.emit(hdr.t2);
    }
}

V1Switch(IhParser(), IhVerify(), IhIngress(), IhEgress(), IhCompute(),
         IhDeparser()) main;
