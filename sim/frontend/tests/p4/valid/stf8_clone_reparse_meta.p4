// simple_switch ingress_thread, INGRESS CLONING: the copy is parsed again
// first (parser->parse(packet_copy)), THEN copy_field_list_and_set_type
// resets its metadata and copies the field list from the original's final
// ingress state. So in the clone's egress: a listed field has the value it
// had when ingress ended (not what the re-parse wrote), an unlisted field the
// parser wrote is 0, and standard_metadata.parser_error is 0 (only the
// original's parser_error is written after parsing; reset_metadata clears
// the copy's).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> pm;       // unlisted field written by the parser
    bit<8> listed;   // listed field: parser writes 77, ingress 33
    bit<8> perr;     // 1 when parser_error != NoError
    bit<8> itype;
}
header x_t { bit<16> x; }

struct headers_t { h_t h; x_t x; }
struct meta_t {
    bit<8> pm;
    @field_list(1) bit<8> listed;
}

parser CrParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        meta.pm = 0x5a;
        meta.listed = 0x77;
        transition select(hdr.h.op) {
            2: more;
            default: accept;
        }
    }
    state more { pkt.extract(hdr.x); transition accept; }
}

control CrVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control CrIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        meta.listed = 0x33;
        clone_preserving_field_list(CloneType.I2E, 5, 1);
    }
}

control CrEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.pm = meta.pm;
        hdr.h.listed = meta.listed;
        hdr.h.perr = (sm.parser_error == error.NoError) ? 8w0 : 8w1;
        hdr.h.itype = (bit<8>)sm.instance_type;
    }
}

control CrCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control CrDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); pkt.emit(hdr.x); }
}

V1Switch(CrParser(), CrVerify(), CrIngress(), CrEgress(), CrCompute(),
         CrDeparser()) main;
