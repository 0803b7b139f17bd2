// STF rule: an action can be called directly from a control's apply block.
// Its directional parameters (in/out/inout) take the call's arguments with
// copy-in/copy-out; a directionless parameter is then an ordinary value
// argument that the call must supply.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8> a;
    bit<8> b;
    bit<8> c;
}

header out_t {
    bit<8> p;
    bit<8> q;
}

struct headers_t {
    in_t  i;
    out_t o;
}

struct meta_t { }

parser AdParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control AdVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control AdIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action add_to(inout bit<8> x, in bit<8> d) {
        x = x + d;
    }

    action set_pair(out bit<8> p, out bit<8> q, bit<8> v) {
        p = v;
        q = ~v;
    }

    action route(bit<9> port) {
        sm.egress_spec = port;
    }

    apply {
        route(2);
        add_to(hdr.i.a, hdr.i.b);
        add_to(hdr.i.a, 1);
        add_to(hdr.i.c, hdr.i.c);
        hdr.o.setValid();
        set_pair(hdr.o.p, hdr.o.q, hdr.i.b);
        if (hdr.i.a == 0) {
            route(3);
        }
    }
}

control AdEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control AdCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control AdDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(AdParser(), AdVerify(), AdIngress(), AdEgress(), AdCompute(),
         AdDeparser()) main;
