// `@priority(N)` on the entries of a table (the only way p4c ranks
// `const entries`: it refuses `priority = N:` there) is the priority
// p4c's bmv2 back end writes into the JSON, where bmv2's lookup takes the
// matching entry with the SMALLEST number; an entry without the
// annotation gets its position (1, 2, ...), and equal numbers go to the
// earlier entry. `largest_priority_wins` does not change this: p4c leaves
// `const entries` as written. (p4c backends/bmv2/common/control.cpp,
// convertTableEntries; bmv2 src/bm_sim/lookup_structures.cpp.)
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
    bit<8> r1;
    bit<8> r2;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser PaParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control PaVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PaIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action r1(bit<8> v) { hdr.h.r1 = v; }
    action r2(bit<8> v) { hdr.h.r2 = v; }
    table t1 {
        key = { hdr.h.a : ternary; hdr.h.b : ternary; }
        actions = { r1; NoAction; }
        const entries = {
            @priority(30) (0x01, _) : r1(1);
            @priority(10) (_, 0x02) : r1(2);
            @priority(20) (0x01, 0x02) : r1(3);
        }
        default_action = NoAction();
    }
    // Unannotated entries rank by position: the second (2) beats the
    // first's @priority(5); the third (3) loses to both. Smallest wins
    // even with largest_priority_wins = true written out.
    table t2 {
        key = { hdr.h.a : range; }
        actions = { r2; NoAction; }
        const entries = {
            @priority(5) 0 .. 100 : r2(1);
            0 .. 50 : r2(2);
            0 .. 10 : r2(3);
        }
        largest_priority_wins = true;
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 1;
        t1.apply();
        t2.apply();
    }
}

control PaEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control PaCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PaDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(PaParser(), PaVerify(), PaIngress(), PaEgress(), PaCompute(),
         PaDeparser()) main;
