// STF rule: setValid() on an invalid header zeroes its fields first;
// setValid() on a valid header changes nothing.
#include <core.p4>
#include <v1model.p4>

header op_t {
    bit<8> op;
}

header data_t {
    bit<16> x;
    bit<16> y;
}

struct headers_t {
    op_t   op;
    data_t data;
    data_t extra;
}

struct meta_t { }

parser SvParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.op);
        pkt.extract(hdr.data);
        transition accept;
    }
}

control SvVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SvIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        if (hdr.op.op == 1) {
            // Invalidate, then validate again: the fields start over at 0.
            hdr.data.setInvalid();
            hdr.data.setValid();
        } else if (hdr.op.op == 2) {
            // Already valid: no change.
            hdr.data.setValid();
        } else if (hdr.op.op == 3) {
            // Validate, then write only one field.
            hdr.data.setInvalid();
            hdr.data.setValid();
            hdr.data.y = 0x7777;
        } else if (hdr.op.op == 4) {
            // A header never extracted: validated with zero fields, then one field set.
            hdr.extra.setValid();
            hdr.extra.x = hdr.data.x;
        }
    }
}

control SvEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control SvCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SvDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.op);
        pkt.emit(hdr.data);
        pkt.emit(hdr.extra);
    }
}

V1Switch(SvParser(), SvVerify(), SvIngress(), SvEgress(), SvCompute(),
         SvDeparser()) main;
