// STF rule (packet and expect syntax): packet data is the concatenation of
// all hex tokens, whatever the spacing (a byte may be split across tokens;
// tabs count as spaces; upper- and lower-case digits are the same);
// `expect <port>` with no data accepts one frame of any content; an expect
// without a trailing `$` only has to match the start of the frame; `*`
// matches any nibble (a prefix may end mid-byte); `#` after a table
// command starts a comment.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> port;
    bit<8> tag;
}

struct headers_t { h_t h; }
struct meta_t { }

parser ExParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control ExVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    action set_tag(bit<8> t) { hdr.h.tag = t; }
    table tags {
        key = { hdr.h.port : exact; }
        actions = { set_tag; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = (bit<9>)hdr.h.port;
        tags.apply();
    }
}

control ExEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control ExCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control ExDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(ExParser(), ExVerify(), Ing(), ExEgress(), ExCompute(),
         ExDeparser()) main;
