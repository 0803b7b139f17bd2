// STF rule (P4_16 spec, calling convention): when one call passes a header
// and one of that header's fields as two inout arguments, each parameter is
// a separate copy, and the copies are written back left to right when the
// call returns: the later argument's write-back wins for the shared field.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> a;
    bit<8> b;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

// Header first, field second.
void hf(inout h_t h, inout bit<8> x) {
    h.a = 0x11;
    h.b = x;      // the value copied in, not 0x11
    x = 0x22;
}

// Field first, header second.
void fh(inout bit<8> x, inout h_t h) {
    x = 0x33;
    h.a = h.a + 1;
}

parser IaParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control IaVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control IaIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        if (hdr.h.op == 1) {
            hf(hdr.h, hdr.h.a);
        } else if (hdr.h.op == 2) {
            fh(hdr.h.a, hdr.h);
        } else if (hdr.h.op == 3) {
            hf(hdr.h, hdr.h.b);
        }
    }
}

control IaEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control IaCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control IaDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(IaParser(), IaVerify(), IaIngress(), IaEgress(), IaCompute(),
         IaDeparser()) main;
