// STF rule: lookahead<bit<N>>() with N not a multiple of 8 returns the next
// N bits of the packet (the most significant bits of the bytes ahead, across
// byte boundaries) without consuming them; select can branch on it, also
// with a mask. The bytes looked at are still extracted or left as payload.
#include <core.p4>
#include <v1model.p4>

header a_t {
    bit<8> b0;
    bit<8> b1;
    bit<8> b2;
}

header out_t {
    bit<8>  path;
    bit<16> p13;
    bit<24> p20;
    bit<16> p12;
}

struct headers_t {
    a_t   a;
    out_t res;
}

struct meta_t {
    bit<8>  path;
    bit<13> p13;
    bit<20> p20;
    bit<12> p12;
}

parser LoParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        transition select(pkt.lookahead<bit<5>>()) {
            5w0x1f            : s_long;
            5w0x01 &&& 5w0x01 : s_odd;
            default           : s_plain;
        }
    }
    state s_long {
        meta.path = 1;
        meta.p13 = pkt.lookahead<bit<13>>();
        meta.p20 = pkt.lookahead<bit<20>>();
        pkt.extract(hdr.a);
        meta.p12 = pkt.lookahead<bit<12>>();
        transition accept;
    }
    state s_odd {
        meta.path = 2;
        pkt.extract(hdr.a);
        transition select(pkt.lookahead<bit<12>>()) {
            12w0xabc : s_abc;
            default  : accept;
        }
    }
    state s_abc {
        meta.path = 3;
        transition accept;
    }
    state s_plain {
        meta.path = 4;
        pkt.extract(hdr.a);
        transition accept;
    }
}

control LoVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LoIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.res.setValid();
        hdr.res.path = meta.path;
        hdr.res.p13 = (bit<16>)meta.p13;
        hdr.res.p20 = (bit<24>)meta.p20;
        hdr.res.p12 = (bit<16>)meta.p12;
    }
}

control LoEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control LoCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LoDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.a);
        pkt.emit(hdr.res);
    }
}

V1Switch(LoParser(), LoVerify(), LoIngress(), LoEgress(), LoCompute(),
         LoDeparser()) main;
