// STF rule (P4_16 spec 7.5 typedef, 7.6 `type`, 8.18 operations on new
// types): a `type` is a new type with its base type's layout. In a header it
// is extracted and emitted as its base bits; as a table key and as action
// data STF takes plain numbers; arithmetic needs a cast to the base type;
// `==` between two values of the same new type is allowed (a typedef of a
// new type is the same new type). A typedef'd bit<16> mixes freely with
// bit<16>.
#include <core.p4>
#include <v1model.p4>

typedef bit<16> Port16;
type bit<16> PortId;
type bit<8> Tag;
typedef PortId PortAlias;

header h_t {
    PortId    p;
    Tag       t;
    Port16    q;
    bit<16>   sum;
    PortAlias pa;
}
struct headers_t { h_t h; }
struct meta_t { }

parser NtParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control NtVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control NtIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action set(Tag nt, PortId np) {
        hdr.h.t = nt;
        hdr.h.pa = np;
    }
    action keep() {
        hdr.h.t = (Tag)((bit<8>)hdr.h.t + 1);
    }
    table map {
        key = { hdr.h.p : exact; }
        actions = { set; keep; }
        default_action = keep();
    }
    apply {
        hdr.h.sum = (bit<16>)hdr.h.p + hdr.h.q;
        map.apply();
        if (hdr.h.pa == hdr.h.p) {
            hdr.h.q = 16w0xeeee;
        }
        sm.egress_spec = 2;
    }
}

control NtEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control NtCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control NtDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(NtParser(), NtVerify(), NtIngress(), NtEgress(), NtCompute(),
         NtDeparser()) main;
