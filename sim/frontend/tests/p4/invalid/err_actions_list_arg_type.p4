// An argument in a table's `actions` list that does not match the action's
// parameter type is refused (code E0200).
// Written for Janus; the rule follows p4c's front end.
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; }
struct headers_t { h_t h; }
struct meta_t { bit<8> m; bit<16> w; }
parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action copy(in bit<8> x) { meta.m = x; }
    table t {
        key = { meta.m : exact; }
        actions = {
            copy(meta.w); // error: E0200
        }
    }
    apply { t.apply(); }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
