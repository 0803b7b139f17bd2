// STF rule: extracting into a header that is already valid overwrites it:
// the cursor still advances past the bytes of every extract, so the bytes
// of the earlier extracts are consumed and vanish from the output (the
// deparser emits the header once, with its last value, then the payload).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> x;    // 1: another h follows
    bit<8> y;
}

struct headers_t {
    h_t h;
}

struct meta_t {
    bit<8> count;
}

parser EtParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        meta.count = 0;
        transition again;
    }
    state again {
        pkt.extract(hdr.h);
        meta.count = meta.count + 1;
        transition select(hdr.h.x) {
            1       : again;
            default : accept;
        }
    }
}

control EtVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EtIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        // Report the number of extracts in the high nibble of y.
        hdr.h.y = (meta.count << 4) | (hdr.h.y & 0x0f);
    }
}

control EtEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control EtCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EtDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(EtParser(), EtVerify(), EtIngress(), EtEgress(), EtCompute(),
         EtDeparser()) main;
