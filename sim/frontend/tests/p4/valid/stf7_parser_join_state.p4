// STF rule (P4_16 spec, parser states): a state reached from two different
// predecessors runs the same statements whichever way it is entered, with
// the values its predecessor left (parser-visible metadata); a loop back
// through one predecessor enters it again; `.next` on a full stack fails
// with StackOutOfBounds, keeping the values set so far (bmv2: in place).
#include <core.p4>
#include <v1model.p4>

header r_t { bit<8> path; bit<8> visits; bit<8> err; }
header e_t { bit<8> kind; }
header x_t { bit<8> v; }
header y_t { bit<16> v; }
header z_t { bit<8> again; }

struct headers_t {
    r_t    r;
    e_t    e;
    x_t[2] xs;
    y_t    y;
    z_t[3] zs;
}

struct meta_t {
    bit<8> path;
    bit<8> visits;
}

parser JsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.e);
        transition select(hdr.e.kind) {
            1: via_a;
            2: via_b;
            default: accept;
        }
    }
    state via_a {
        pkt.extract(hdr.xs.next);
        meta.path = (meta.path << 4) | 0xa;
        transition common;
    }
    state via_b {
        pkt.extract(hdr.y);
        meta.path = (meta.path << 4) | 0xb;
        transition common;
    }
    state common {
        pkt.extract(hdr.zs.next);
        meta.visits = meta.visits + 1;
        transition select(hdr.zs.last.again) {
            1: via_a;
            default: accept;
        }
    }
}

control JsVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control JsIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.r.setValid();
        hdr.r.path = meta.path;
        hdr.r.visits = meta.visits;
        if (sm.parser_error == error.NoError) {
            hdr.r.err = 0;
        } else if (sm.parser_error == error.StackOutOfBounds) {
            hdr.r.err = 1;
        } else {
            hdr.r.err = 0xff;
        }
    }
}

control JsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control JsCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control JsDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.r);
        pkt.emit(hdr.e);
        pkt.emit(hdr.xs);
        pkt.emit(hdr.y);
        pkt.emit(hdr.zs);
    }
}

V1Switch(JsParser(), JsVerify(), JsIngress(), JsEgress(), JsCompute(),
         JsDeparser()) main;
