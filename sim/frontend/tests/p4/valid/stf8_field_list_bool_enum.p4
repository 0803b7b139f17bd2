// v1model @field_list(id) on user metadata of type bool and of a
// serializable enum type: resubmit_preserving_field_list keeps their values
// into the resubmitted pass like any bit<N> field; an unlisted bool and
// enum field of the same types start the pass at false / 0.
#include <core.p4>
#include <v1model.p4>

enum bit<8> Color_t { NONE = 0, RED = 0x11, GREEN = 0x22, BLUE = 0x33 }

header h_t {
    bit<8> op;
    bit<8> flag;      // listed bool
    bit<8> color;     // listed enum
    bit<8> uflag;     // unlisted bool
    bit<8> ucolor;    // unlisted enum
    bit<8> itype;
}

struct headers_t { h_t h; }
struct meta_t {
    @field_list(1) bool    flag;
    @field_list(1) Color_t color;
    bool    uflag;
    Color_t ucolor;
}

parser FbParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control FbVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control FbIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 0) {
            meta.flag = hdr.h.op[0:0] == 1;
            meta.color = hdr.h.op[1:1] == 1 ? Color_t.BLUE : Color_t.GREEN;
            meta.uflag = true;
            meta.ucolor = Color_t.RED;
            resubmit_preserving_field_list(1);
        } else {
            hdr.h.flag = meta.flag ? 8w1 : 8w0;
            hdr.h.color = (bit<8>)meta.color;
            hdr.h.uflag = meta.uflag ? 8w1 : 8w0;
            hdr.h.ucolor = (bit<8>)meta.ucolor;
            hdr.h.itype = (bit<8>)sm.instance_type;
            sm.egress_spec = 2;
        }
    }
}

control FbEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control FbCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control FbDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(FbParser(), FbVerify(), FbIngress(), FbEgress(), FbCompute(),
         FbDeparser()) main;
