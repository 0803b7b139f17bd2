// STF rule (P4_16 spec 13.8.3 lookahead, 13.8.4 skipping bits): lookahead<T>
// works for a struct type T of fixed width (the spec's own example reads a
// struct's field from it): the fields get the next bits in order, the
// cursor stays; `advance(n)` with n computed at run time skips n bits,
// which then vanish from the output. (Skipping with `extract<T>(_)`:
// stf4_extract_dontcare.)
#include <core.p4>
#include <v1model.p4>

struct peek_t {
    bit<4> ver;
    bit<4> len;
    bit<8> kind;
}
header pre_t { bit<8> skip; }
header h_t {
    bit<4> ver;
    bit<4> len;
    bit<8> kind;
}
header x_t { bit<16> v; }
header info_t {
    bit<8> ver;
    bit<8> len;
    bit<8> kind;
}
struct headers_t {
    pre_t  pre;
    info_t info;
    h_t    h;
    x_t    x;
}
struct meta_t { }

parser LkParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.pre);
        pkt.advance((bit<32>)hdr.pre.skip * 8);
        peek_t p = pkt.lookahead<peek_t>();
        hdr.info.setValid();
        hdr.info.ver = (bit<8>)p.ver;
        hdr.info.len = (bit<8>)p.len;
        hdr.info.kind = p.kind;
        transition select(p.kind) {
            0x11: skip_then;
            default: take;
        }
    }
    state skip_then {
        pkt.advance(16);
        pkt.extract(hdr.x);
        transition accept;
    }
    state take {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control LkVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control LkIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply { sm.egress_spec = 2; }
}

control LkEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control LkCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control LkDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.pre);
        pkt.emit(hdr.info);
        pkt.emit(hdr.h);
        pkt.emit(hdr.x);
    }
}

V1Switch(LkParser(), LkVerify(), LkIngress(), LkEgress(), LkCompute(),
         LkDeparser()) main;
