// Probe (P4_16 serializable enums, spec 7.2.1): a header field may have a
// serializable enum type (`enum bit<8> Kind_t`) and a newtype (`type bit<16>`);
// extract fills them from the wire; select and switch compare them against
// enum members; an enum value outside the members is still carried as its
// bits; enum-typed table keys and action parameters take numbers in STF.
#include <core.p4>
#include <v1model.p4>

enum bit<8> Kind_t { PING = 1, PONG = 2, DATA = 0x10 }
type bit<16> Cookie_t;
const Cookie_t MAGIC = (Cookie_t)16w0xcafe;
header h_t { Kind_t kind; Cookie_t cookie; bit<8> res; bit<8> res2; }
struct headers_t { h_t h; }
struct meta_t { Kind_t seen; }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.kind) {
            Kind_t.PING: ping;
            Kind_t.DATA: accept;
            default: other;
        }
    }
    state ping { meta.seen = Kind_t.PING; transition accept; }
    state other { meta.seen = Kind_t.PONG; transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    action answer(Kind_t k) { hdr.h.kind = k; }
    table by_kind {
        key = { hdr.h.kind : exact; }
        actions = { answer; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 2;
        switch (hdr.h.kind) {
            Kind_t.PING: { hdr.h.res = 0xa1; }
            Kind_t.PONG: { hdr.h.res = 0xa2; }
            default: { hdr.h.res = (bit<8>)meta.seen; }
        }
        if (hdr.h.cookie == MAGIC) {
            hdr.h.res2 = 0x01;
        }
        by_kind.apply();
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
