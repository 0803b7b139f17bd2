// STF rule (P4_16 spec, header stacks in parsers): a state that extracts
// `stk.next` and selects on `stk.last.type` loops over TLVs; `.last` is the
// element just extracted; a type with no case and no default fails with
// NoMatch; a fifth `.next` on a 4-element stack fails with
// StackOutOfBounds; a branch can extract into a second stack and come back.
#include <core.p4>
#include <v1model.p4>

header r_t { bit<8> count; bit<8> err; }
header tlv_t { bit<8> type; bit<8> val; }
header ext_t { bit<16> v; }

struct headers_t {
    r_t      r;
    tlv_t[4] tlvs;
    ext_t[2] exts;
}

struct meta_t { bit<8> count; }

parser TlParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        transition parse_tlv;
    }
    state parse_tlv {
        pkt.extract(hdr.tlvs.next);
        meta.count = meta.count + 1;
        transition select(hdr.tlvs.last.type) {
            0: accept;
            1: parse_tlv;
            2: parse_ext;
        }
    }
    state parse_ext {
        pkt.extract(hdr.exts.next);
        transition parse_tlv;
    }
}

control TlVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control TlIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.r.setValid();
        hdr.r.count = meta.count;
        if (sm.parser_error == error.NoError) {
            hdr.r.err = 0;
        } else if (sm.parser_error == error.StackOutOfBounds) {
            hdr.r.err = 1;
        } else if (sm.parser_error == error.NoMatch) {
            hdr.r.err = 2;
        } else {
            hdr.r.err = 0xff;
        }
    }
}

control TlEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control TlCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control TlDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.r);
        pkt.emit(hdr.tlvs);
        pkt.emit(hdr.exts);
    }
}

V1Switch(TlParser(), TlVerify(), TlIngress(), TlEgress(), TlCompute(),
         TlDeparser()) main;
