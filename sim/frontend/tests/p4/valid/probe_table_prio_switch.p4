// Probe (tables): const entries mixing ternary masks (&&&), ranges (..) and
// don't-care (_) with explicit priorities (a larger priority wins, as in
// v1model's largest_priority_wins default), a default action with
// arguments, switch on action_run with a default label, and STF entries
// added at run time into a non-const table.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; bit<8> out1; bit<8> out2; }
struct headers_t { h_t h; }
struct meta_t { bit<8> tag; }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    action set_tag(bit<8> t) { meta.tag = t; }
    action deny() { meta.tag = 0xdd; }
    action other(bit<8> t, bit<8> u) { meta.tag = t + u; }
    table cls {
        key = { hdr.h.a : ternary; hdr.h.b : range; }
        actions = { set_tag; deny; other; }
        const entries = {
            priority = 10 : (8w0x10 &&& 8w0xf0, 8w0 .. 8w0x7f) : set_tag(1);
            priority = 20 : (8w0x12, _) : set_tag(2);
            priority = 5  : (_, 8w0x40 .. 8w0x4f) : deny();
            priority = 30 : (8w0x1f, 8w0x50 .. 8w0x5f) : other(3, 4);
        }
        default_action = other(0x20, 0x02);
    }
    action fwd(bit<9> p) { sm.egress_spec = p; }
    table route {
        key = { meta.tag : exact; }
        actions = { fwd; NoAction; }
        default_action = fwd(7);
    }
    apply {
        switch (cls.apply().action_run) {
            set_tag: { hdr.h.out1 = 0x51; }
            deny: { hdr.h.out1 = 0xde; mark_to_drop(sm); }
            default: { hdr.h.out1 = 0x0d; }
        }
        hdr.h.out2 = meta.tag;
        if (sm.egress_spec != 511) {
            route.apply();
        }
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
