// STF rule: assigning a whole header stack (`hdr.b = hdr.a`) copies every
// element, its validity included (an invalid source element makes the
// target element invalid, even if it was valid with data). The copy is a
// value: later changes to the source stack do not show in the target.
#include <core.p4>
#include <v1model.p4>

header cmd_t {
    bit<8> op;
    bit<8> n;    // number of stack elements that follow (0..3)
}

header e_t {
    bit<8> v;
}

struct headers_t {
    cmd_t  cmd;
    e_t[3] a;
    e_t[3] b;
}

struct meta_t { }

parser SaParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.cmd);
        transition select(hdr.cmd.n) {
            0       : accept;
            1       : one;
            2       : two;
            default : three;
        }
    }
    state one {
        pkt.extract(hdr.a[0]);
        transition accept;
    }
    state two {
        pkt.extract(hdr.a[0]);
        pkt.extract(hdr.a[1]);
        transition accept;
    }
    state three {
        pkt.extract(hdr.a[0]);
        pkt.extract(hdr.a[1]);
        pkt.extract(hdr.a[2]);
        transition accept;
    }
}

control SaVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SaIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        if (hdr.cmd.op == 1) {
            hdr.b = hdr.a;
            hdr.a[0].v = 0xff;        // not seen in b
        } else if (hdr.cmd.op == 2) {
            hdr.b = hdr.a;
            hdr.a.pop_front(1);       // not seen in b
        } else if (hdr.cmd.op == 3) {
            hdr.b[2].setValid();
            hdr.b[2].v = 0x99;
            hdr.b = hdr.a;            // a[2] is invalid: b[2] becomes invalid
        }
    }
}

control SaEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control SaCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SaDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.cmd);
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
    }
}

V1Switch(SaParser(), SaVerify(), SaIngress(), SaEgress(), SaCompute(),
         SaDeparser()) main;
