// STF rule (extern names): registers and counters declared in a control
// instantiated twice exist once per instance and are named by instance
// path (Ing.s1.r, Ing.s2.r); register_write / register_reset /
// check_counter address one instance only. count() called twice in one
// pass counts the packet twice (packets and bytes).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> i1;
    bit<8> i2;
    bit<8> twice;
    bit<8> v1;
    bit<8> v2;
}

struct headers_t { h_t h; }
struct meta_t { }

parser NeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control NeVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Stage(in bit<8> idx, in bool twice, inout bit<8> v) {
    register<bit<8>>(4) r;
    counter(4, CounterType.packets_and_bytes) c;
    apply {
        r.read(v, (bit<32>)idx);
        r.write((bit<32>)idx, v + 1);
        c.count((bit<32>)idx);
        if (twice) {
            c.count((bit<32>)idx);
        }
    }
}

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    Stage() s1;
    Stage() s2;
    apply {
        s1.apply(hdr.h.i1, hdr.h.twice == 1, hdr.h.v1);
        s2.apply(hdr.h.i2, false, hdr.h.v2);
        sm.egress_spec = 2;
    }
}

control NeEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control NeCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control NeDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(NeParser(), NeVerify(), Ing(), NeEgress(), NeCompute(),
         NeDeparser()) main;
