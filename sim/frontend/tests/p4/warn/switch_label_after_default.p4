// Warning: a label after `default` never matches (W0003, a warning as in p4c's
// ValidateParsedProgram; the P4_16 specification wants default last).
// Written for Janus from the P4_16 specification's examples (v1.2.5).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }

struct headers_t { h_t h;  }
struct meta_t { bit<8> m; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    state start { pkt.extract(hdr.h); transition accept; }

}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    apply {
        sm.egress_spec = 1;
        switch (hdr.h.a) { default: { hdr.h.b = 1; } 2: { hdr.h.b = 2; } } // warning: W0003

    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
