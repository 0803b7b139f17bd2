// bmv2 (simple_switch primitives): random(r, lo, hi) with lo == hi gives lo
// (at any width, the top of the range too); log_msg with or without
// arguments changes nothing; truncate(n) with n past the packet's length
// leaves it whole; digest() then mark_to_drop drops the packet (the
// digest goes to the control plane, not to a port).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  op;
    bit<8>  r8;
    bit<16> lo16;
    bit<16> r16;
    bit<64> r64;
}
struct headers_t {
    h_t h;
}
struct learn_t {
    bit<8>  op;
    bit<16> lo16;
}
struct meta_t { }

parser MeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}
control MeVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control MeIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        log_msg("plain message");
        log_msg("op={} lo={} flag={}", { hdr.h.op, hdr.h.lo16, hdr.h.op == 1 });
        random(hdr.h.r8, 8w7, 8w7);
        random(hdr.h.r16, hdr.h.lo16, hdr.h.lo16);
        random(hdr.h.r64, 64w0xffff_ffff_ffff_ffff, 64w0xffff_ffff_ffff_ffff);
        truncate(32w1000);
        if (hdr.h.op == 1) {
            digest<learn_t>(1, { hdr.h.op, hdr.h.lo16 });
            mark_to_drop(sm);
        }
    }
}
control MeEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}
control MeCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control MeDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}
V1Switch(MeParser(), MeVerify(), MeIngress(), MeEgress(), MeCompute(),
         MeDeparser()) main;
