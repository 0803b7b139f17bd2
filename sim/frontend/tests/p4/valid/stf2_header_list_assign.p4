// STF rule (P4_16 spec, header initializers): assigning a list expression
// `{ e1, e2 }` or a structure-valued expression `{ f = e, ... }` (fields by
// name, in any order) to a header fills its fields in declaration order /
// by name AND makes the header valid. Assigning the invalid header `{#}`
// makes it invalid.
#include <core.p4>
#include <v1model.p4>

header a_t {
    bit<8> op;
}

header b_t {
    bit<8>  x;
    bit<16> y;
}

struct headers_t {
    a_t a;
    b_t b;
}

struct meta_t { }

parser HlParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.a);
        transition select(hdr.a.op) {
            5       : parse_b;
            default : accept;
        }
    }
    state parse_b {
        pkt.extract(hdr.b);
        transition accept;
    }
}

control HlVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control HlIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        if (hdr.a.op == 1) {
            hdr.b = { 8w1, 16w0x0203 };
        } else if (hdr.a.op == 2) {
            hdr.b = { y = 16w0x0506, x = 8w4 };
        } else if (hdr.a.op == 3) {
            hdr.b.setValid();
            hdr.b.x = 9;
            hdr.b = (b_t){#};
        } else if (hdr.a.op == 5) {
            // b was extracted (valid); {#} invalidates it.
            hdr.b = (b_t){#};
        }
    }
}

control HlEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control HlCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control HlDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
    }
}

V1Switch(HlParser(), HlVerify(), HlIngress(), HlEgress(), HlCompute(),
         HlDeparser()) main;
