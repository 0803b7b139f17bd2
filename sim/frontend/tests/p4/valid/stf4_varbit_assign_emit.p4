// STF rule (P4_16 spec 8.10 varbit): assigning a header with a varbit field
// copies the field's dynamic width with its bits (and the validity); the
// copy is emitted at that width, a zero-width varbit emits nothing. Two
// headers holding varbits are equal when their fixed fields, varbit widths
// and bits are equal. Changing the copy's fixed field leaves the original.
// (`==` on the varbit fields themselves: stf4_varbit_field_eq.)
#include <core.p4>
#include <v1model.p4>

header tag_t { bit<8> op; }
header opt_t {
    bit<8>     len;
    varbit<64> data;
}
struct headers_t {
    tag_t t;
    opt_t a;
    opt_t b;
    opt_t c;
}
struct meta_t { }

parser VaParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.t);
        pkt.extract(hdr.a, (bit<32>)pkt.lookahead<bit<8>>() * 8);
        transition select(hdr.t.op) {
            5: second;
            default: accept;
        }
    }
    state second {
        pkt.extract(hdr.c, (bit<32>)pkt.lookahead<bit<8>>() * 8);
        transition accept;
    }
}

control VaVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control VaIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        if (hdr.t.op == 1) {
            hdr.b = hdr.a;
        } else if (hdr.t.op == 2) {
            hdr.b = hdr.a;
            hdr.a.setInvalid();
        } else if (hdr.t.op == 3) {
            hdr.b = hdr.a;
            hdr.b.len = hdr.b.len + 0x10;
        } else if (hdr.t.op == 4) {
            hdr.b = hdr.a;
            if (hdr.a == hdr.b) {
                hdr.t.op = 0x44;
            }
        } else if (hdr.t.op == 5) {
            if (hdr.a == hdr.c) {
                hdr.t.op = 0x55;
            } else {
                hdr.t.op = 0x50;
            }
        }
        sm.egress_spec = 2;
    }
}

control VaEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control VaCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control VaDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.t);
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
    }
}

V1Switch(VaParser(), VaVerify(), VaIngress(), VaEgress(), VaCompute(),
         VaDeparser()) main;
