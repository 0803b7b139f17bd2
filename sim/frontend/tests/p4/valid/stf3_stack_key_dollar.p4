// STF rule (key names): a key on a header stack element is named by its
// source text, `hdr.tags[1].v`. In STF the element index is written `$N`
// (`hdr.tags$1.v`), or `[N]` on the first component of a suffix
// (`tags[2].v`); `tags$0.v` is the suffix form with `$`. Each key must
// reach exactly its own element.
#include <core.p4>
#include <v1model.p4>

header tag_t { bit<8> v; }
header res_t { bit<8> r; }

struct headers_t {
    tag_t[3] tags;
    res_t    res;
}
struct meta_t { }

parser SkParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.tags.next);
        pkt.extract(hdr.tags.next);
        pkt.extract(hdr.tags.next);
        pkt.extract(hdr.res);
        transition accept;
    }
}

control SkVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    action set(bit<8> r) { hdr.res.r = r; }
    table t {
        key = {
            hdr.tags[0].v : exact;
            hdr.tags[1].v : exact;
            hdr.tags[2].v : ternary;
        }
        actions = { set; }
        default_action = set(0xee);
    }
    apply {
        sm.egress_spec = 2;
        t.apply();
    }
}

control SkEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control SkCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control SkDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.tags); pkt.emit(hdr.res); }
}

V1Switch(SkParser(), SkVerify(), Ing(), SkEgress(), SkCompute(),
         SkDeparser()) main;
