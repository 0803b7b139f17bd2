// STF rule: register cells have the register's element type. A bit<48>
// register keeps all 48 bits (values above 2^32 survive, adding 1 to
// 2^48-1 wraps to 0); an int<16> register keeps negative values, reads
// them back as signed (so `< 0` holds), and wraps at -32768/32767. Cells
// persist across packets and can be preset with STF register_write.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  idx;
    bit<48> inc;
    int<16> dec;
    bit<48> out48;
    int<16> outs;
    bit<8>  neg;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser RwParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control RwVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RwIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    register<bit<48>>(32w4) r48;
    register<int<16>>(32w4) rs;
    apply {
        sm.egress_spec = 1;
        bit<32> i = (bit<32>)hdr.h.idx;
        bit<48> v;
        r48.read(v, i);
        v = v + hdr.h.inc;
        r48.write(i, v);
        hdr.h.out48 = v;
        int<16> s;
        rs.read(s, i);
        s = s - hdr.h.dec;
        rs.write(i, s);
        hdr.h.outs = s;
        hdr.h.neg = s < 0 ? 8w1 : 8w0;
    }
}

control RwEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control RwCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RwDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(RwParser(), RwVerify(), RwIngress(), RwEgress(), RwCompute(),
         RwDeparser()) main;
