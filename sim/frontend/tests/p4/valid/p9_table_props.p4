// Table properties: @name key, @defaultonly/@tableonly, const default_action, size, largest_priority_wins, priority_delta, entries with priority.
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
    @name("setb") action set_b(bit<8> v) { hdr.h.b = v; }
    @defaultonly action miss() { hdr.h.b = 0xee; }
    @tableonly action tonly() { hdr.h.b = 0x77; }
    table t {
        key = { hdr.h.a : ternary @name("akey"); hdr.h.c : range; }
        actions = { set_b; @defaultonly miss; tonly; }
        const default_action = miss();
        size = 1024;
        largest_priority_wins = false;
        priority_delta = 10;
        entries = {
            const priority = 5: (0x10 &&& 0xF0, 0 .. 9) : set_b(1);
            (0x11, _) : set_b(2);
            (_, 10 .. 20) : tonly();
        }
    }

    apply {
        sm.egress_spec = 1;
        t.apply();

    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
