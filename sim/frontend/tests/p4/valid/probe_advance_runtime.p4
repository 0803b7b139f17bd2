// Probe (packet_in.advance, spec 12.8.3 and bmv2): advance(n) with a
// run-time n skips n bits, which the deparser then leaves out (only the
// unparsed payload after the cursor is emitted); advancing past the end of
// the packet is PacketTooShort, and the cursor does not move (the payload
// still holds the bytes that were there).
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> skip_bytes; }
header t_t { bit<8> v; }
header r_t { bit<8> err; }
struct headers_t { h_t h; t_t t; r_t r; }
struct meta_t { }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        pkt.advance((bit<32>)hdr.h.skip_bytes * 8);
        pkt.extract(hdr.t);
        transition accept;
    }
}

control PVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.r.setValid();
        hdr.r.err = (sm.parser_error == error.PacketTooShort) ? 8w1 : 8w0;
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    apply { }
}

control PCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
