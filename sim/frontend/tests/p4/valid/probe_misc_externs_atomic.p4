// Probe (v1model externs that tests call for their side effects only):
// random(r, lo, hi) with lo == hi gives lo; digest, log_msg with format
// arguments, assert(true) and assume(true) change nothing; an @atomic block
// runs its statements; packet_length is the received frame's length.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> r; bit<32> len; bit<8> z; }
struct headers_t { h_t h; }
struct learn_t { bit<8> a; bit<9> port; }
struct meta_t { }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    register<bit<8>>(1) last;
    apply {
        sm.egress_spec = 3;
        bit<8> r;
        random(r, 8w0x42, 8w0x42);
        hdr.h.r = r;
        digest<learn_t>(1, { hdr.h.a, sm.ingress_port });
        log_msg("a={} port={}", { hdr.h.a, sm.ingress_port });
        log_msg("plain message");
        assert(hdr.h.isValid());
        assume(true);
        @atomic {
            bit<8> v;
            last.read(v, 0);
            hdr.h.z = v;
            last.write(0, hdr.h.a);
        }
        hdr.h.len = sm.packet_length;
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
