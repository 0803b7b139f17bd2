// A select with no matching case and no default: the parser stops with
// error.NoMatch (P4_16 spec, "select expressions"); on v1model the packet
// still reaches ingress with parser_error set, the header extracted before
// the select stays valid and the unparsed bytes stay payload.
#include <core.p4>
#include <v1model.p4>

header tag_t { bit<8> kind; }
header body_t { bit<8> v; }
header out_t { bit<8> err; }
struct headers_t { tag_t tag; body_t body; out_t o; }
struct meta_t { }

parser NmParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.tag);
        transition select(hdr.tag.kind) {
            1: body;
            2: accept;
        }
    }
    state body { pkt.extract(hdr.body); transition accept; }
}

control NmVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control NmIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        if (sm.parser_error == error.NoError) {
            hdr.o.err = 0;
        } else if (sm.parser_error == error.NoMatch) {
            hdr.o.err = 1;
        } else {
            hdr.o.err = 0xff;
        }
    }
}

control NmEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control NmCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control NmDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.o);
        pkt.emit(hdr.tag);
        pkt.emit(hdr.body);
    }
}

V1Switch(NmParser(), NmVerify(), NmIngress(), NmEgress(), NmCompute(), NmDeparser()) main;
