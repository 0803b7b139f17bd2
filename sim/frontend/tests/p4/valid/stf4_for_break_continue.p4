// STF rule (P4_16 spec 12.10 for statement, 1.2.5): the condition is checked
// before every iteration (a false condition at the start runs nothing);
// `continue` skips the rest of the body but still runs the update
// statements; `break` leaves the innermost loop only, without running the
// update; several init and update statements separated by commas run in
// order; the condition and bounds may come from packet fields.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> n;
    bit<8> skip;
    bit<8> cap;
    bit<8> acc;
    bit<8> iters;
    bit<8> pairs;
    bit<8> meet;
    bit<8> upd;
}
struct headers_t { h_t h; }
struct meta_t { }

parser FlParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control FlVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control FlIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        bit<8> acc = 0;
        bit<8> iters = 0;
        bit<8> upd = 0;
        for (bit<8> i = 0; i < hdr.h.n; i = i + 1, upd = upd + 1) {
            iters = iters + 1;
            if (i == hdr.h.skip) {
                continue;
            }
            if (acc > hdr.h.cap) {
                break;
            }
            acc = acc + i;
        }
        bit<8> pairs = 0;
        for (bit<8> i = 0; i < 4; i = i + 1) {
            for (bit<8> j = 0; j < 4; j = j + 1) {
                if (j > i) {
                    break;
                }
                pairs = pairs + 1;
            }
            pairs = pairs + 0x10;
        }
        bit<8> meet = 0;
        for (bit<8> lo = 0, bit<8> hi = hdr.h.n; lo < hi; lo = lo + 1, hi = hi - 1) {
            meet = meet + 1;
        }
        hdr.h.acc = acc;
        hdr.h.iters = iters;
        hdr.h.pairs = pairs;
        hdr.h.meet = meet;
        hdr.h.upd = upd;
        sm.egress_spec = 2;
    }
}

control FlEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control FlCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control FlDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(FlParser(), FlVerify(), FlIngress(), FlEgress(), FlCompute(),
         FlDeparser()) main;
