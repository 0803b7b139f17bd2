// P4_16 spec (match-action, keys): table keys may be of type error, bool
// and serializable enum; const entries name their values (error.X, true,
// Kind.B). Here parser_error (set by a failed verify or a short packet,
// which does not drop under v1model), a bool expression key and an enum
// header field select the entry.
#include <core.p4>
#include <v1model.p4>

error { BadTag }

enum bit<8> Kind { A = 1, B = 2, C = 3 }

header h_t {
    Kind   kind;
    bit<8> tag;
    bit<8> r;
}

header x_t { bit<16> x; }

struct headers_t {
    h_t h;
    x_t x;
}
struct meta_t { }

parser EkParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        verify(hdr.h.tag != 0xff, error.BadTag);
        pkt.extract(hdr.x);
        transition accept;
    }
}

control EkVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    action set(bit<8> v) { hdr.h.r = v; }
    table t {
        key = {
            sm.parser_error     : exact;
            hdr.h.tag[0:0] == 1 : exact @name("odd");
            hdr.h.kind          : exact;
        }
        actions = { set; }
        default_action = set(0xee);
        const entries = {
            (error.NoError,        true,  Kind.A) : set(1);
            (error.NoError,        false, Kind.A) : set(2);
            (error.NoError,        true,  Kind.B) : set(3);
            (error.BadTag,         true,  Kind.A) : set(4);
            (error.PacketTooShort, false, Kind.C) : set(5);
        }
    }
    apply {
        sm.egress_spec = 2;
        t.apply();
    }
}

control EkEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control EkCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control EkDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); pkt.emit(hdr.x); }
}

V1Switch(EkParser(), EkVerify(), Ing(), EkEgress(), EkCompute(),
         EkDeparser()) main;
