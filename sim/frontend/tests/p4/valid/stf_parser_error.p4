// STF rule: a parser error does not drop the packet. The error is visible in
// standard_metadata.parser_error, ingress still runs, headers extracted
// before the error stay valid, and the unparsed bytes stay in the payload.
#include <core.p4>
#include <v1model.p4>

error { BadTag }

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header probe_t {
    bit<8>  err_code;  // written by ingress
    bit<8>  tag;
    bit<16> pad;
}

header tail_t {
    bit<64> data;
}

struct headers_t {
    ethernet_t eth;
    probe_t    probe;
    tail_t     tail;
}

struct meta_t { }

parser ErrParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            0x88b5  : parse_probe;
            default : accept;
        }
    }
    state parse_probe {
        pkt.extract(hdr.probe);
        verify(hdr.probe.tag != 0xff, error.BadTag);
        transition select(hdr.probe.tag) {
            0x01    : parse_tail;
            0x02    : accept;
            default : reject_no_match;
        }
    }
    state reject_no_match {
        // A select with no matching case fails with error.NoMatch.
        transition select(hdr.probe.tag) {
            0x03 : accept;
        }
    }
    state parse_tail {
        pkt.extract(hdr.tail);
        transition accept;
    }
}

control ErrVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ErrIngress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        bit<8> code = 0x00;
        if (sm.parser_error == error.PacketTooShort) {
            code = 0x01;
        } else if (sm.parser_error == error.NoMatch) {
            code = 0x02;
        } else if (sm.parser_error == error.BadTag) {
            code = 0x03;
        } else if (sm.parser_error != error.NoError) {
            code = 0x0f;
        }
        if (hdr.probe.isValid()) {
            hdr.probe.err_code = code;
        } else {
            hdr.eth.src = 48w0xee0000000000 | (bit<48>)code;
        }
    }
}

control ErrEgress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply { }
}

control ErrCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ErrDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.probe);
        pkt.emit(hdr.tail);
    }
}

V1Switch(ErrParser(), ErrVerify(), ErrIngress(), ErrEgress(), ErrCompute(),
         ErrDeparser()) main;
