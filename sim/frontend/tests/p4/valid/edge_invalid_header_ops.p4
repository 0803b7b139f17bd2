// STF rule: header validity in assignments and field access, as simple_switch
// runs them. Copying an invalid header onto a valid one makes the target
// invalid (assign_header); copying a valid one onto an invalid one makes it
// valid with the source's fields. setInvalid() keeps the field values, so a
// read still sees them; a field written while the header is invalid keeps the
// value, and setValid() on an invalid header zeroes every field first.
#include <core.p4>
#include <v1model.p4>

header res_t {
    bit<8> op;
    bit<8> b;
    bit<8> c;
    bit<8> d;
}

header h_t {
    bit<8> x;
    bit<8> y;
}

struct headers_t {
    res_t res;
    h_t   h;
    h_t   g;
}

struct meta_t { }

parser EdgeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.res);
        pkt.extract(hdr.h);
        transition accept;
    }
}

control EdgeVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EdgeIngress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        if (hdr.res.op == 1) {
            hdr.g = hdr.h;
        } else if (hdr.res.op == 2) {
            hdr.h = hdr.g;
        } else if (hdr.res.op == 3) {
            hdr.h.setInvalid();
            hdr.res.b = hdr.h.x;
            hdr.res.c = hdr.h.isValid() ? 8w1 : 8w0;
        } else if (hdr.res.op == 4) {
            hdr.h.setInvalid();
            hdr.h.x = 0x77;
            hdr.res.c = hdr.h.x;
            hdr.h.setValid();
            hdr.res.b = hdr.h.x;
        } else if (hdr.res.op == 5) {
            hdr.g.x = 0x5a;
            hdr.res.b = hdr.g.x;
        } else if (hdr.res.op == 6) {
            hdr.g.setValid();
            hdr.res.b = hdr.g.x;
            hdr.res.d = hdr.g.isValid() ? 8w1 : 8w0;
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
        pkt.emit(hdr.res);
        pkt.emit(hdr.h);
        pkt.emit(hdr.g);
    }
}

V1Switch(EdgeParser(), EdgeVerify(), EdgeIngress(), EdgeEgress(), EdgeCompute(),
         EdgeDeparser()) main;
