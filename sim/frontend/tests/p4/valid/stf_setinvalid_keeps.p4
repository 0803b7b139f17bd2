// STF rules: setInvalid() keeps the field values, and reading an invalid
// header's field yields what its storage holds: the value last written, or 0
// for a header not touched in this packet (nothing leaks between packets).
#include <core.p4>
#include <v1model.p4>

header a_t {
    bit<16> v;
}

header out_t {
    bit<16> from_a;
    bit<16> from_b;
}

struct headers_t {
    a_t   a;
    a_t   b;
    out_t res;
}

struct meta_t { }

parser SiParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.a);
        transition select(hdr.a.v) {
            0xbbbb  : parse_b;
            default : accept;
        }
    }
    state parse_b {
        pkt.extract(hdr.b);
        transition accept;
    }
}

control SiVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SiIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        // a is removed from the packet but its value is still readable.
        hdr.a.setInvalid();
        hdr.res.setValid();
        hdr.res.from_a = hdr.a.v;
        // b is valid only when the parser extracted it; otherwise its storage is 0.
        hdr.res.from_b = hdr.b.v;
    }
}

control SiEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control SiCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SiDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
        pkt.emit(hdr.res);
    }
}

V1Switch(SiParser(), SiVerify(), SiIngress(), SiEgress(), SiCompute(),
         SiDeparser()) main;
