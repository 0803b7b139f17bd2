// A table applied in the initialiser of a control-local variable (issue 17,
// family 5): `bool hit = t.apply().hit;` among a control's declarations,
// which p4c accepts. Control-local initialisers run at each apply of the
// control, in order, before its apply block, so the table is applied once
// per packet, before the body reads the result.
// Written for Janus from p4c's behaviour (control-local initialisers are
// moved to the start of the apply block).
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> key; bit<8> hit; bit<8> val; bit<8> runs; }
struct headers_t { h_t h; }
struct meta_t { }

parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action set(bit<8> v) { hdr.h.val = v; hdr.h.runs = hdr.h.runs + 1; }
    action miss() { hdr.h.runs = hdr.h.runs + 1; }
    table t {
        key = { hdr.h.key : exact; }
        actions = { set; miss; }
        const entries = { 1 : set(0x10); 2 : set(0x20); }
        default_action = miss();
    }
    bool hit = t.apply().hit;
    bit<8> seen = hdr.h.val;
    apply {
        sm.egress_spec = 1;
        hdr.h.hit = hit ? 8w1 : 8w0;
        hdr.h.val = seen + 1;
    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
