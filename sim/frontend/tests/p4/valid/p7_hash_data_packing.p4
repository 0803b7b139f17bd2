// bmv2 (BufBuilder in calculations.cpp): the hash input is the list's
// items packed bit by bit, most significant first: a bool is one bit, a
// constant counts at its declared width, and the fields of an invalid
// header are left out (the bits after them move up).
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8>  tag;
    bit<1>  flag_bit;
    bit<7>  seven;
    bit<16> x16;
}
header opt_t {
    bit<16> v;
}
header out_t {
    bit<16> packed_bool;
    bit<32> with_consts;
    bit<32> skip_invalid;
}
struct headers_t {
    in_t  i;
    opt_t opt;
    out_t o;
}
struct meta_t {
    bool flag;
}

parser DpParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition select(hdr.i.tag) {
            1: get_opt;
            default: accept;
        }
    }
    state get_opt {
        pkt.extract(hdr.opt);
        transition accept;
    }
}
control DpVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control DpIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        meta.flag = hdr.i.flag_bit == 1;
        hdr.o.setValid();
        hash(hdr.o.packed_bool, HashAlgorithm.identity, 16w0,
             { meta.flag, hdr.i.seven }, 32w65536);
        hash(hdr.o.with_consts, HashAlgorithm.identity, 32w0,
             { 8w0xab, hdr.i.x16, 4w0xf }, 33w0x1_0000_0000);
        hash(hdr.o.skip_invalid, HashAlgorithm.identity, 32w0,
             { hdr.opt.v, hdr.i.x16 }, 33w0x1_0000_0000);
    }
}
control DpEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}
control DpCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control DpDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.opt);
        pkt.emit(hdr.o);
    }
}
V1Switch(DpParser(), DpVerify(), DpIngress(), DpEgress(), DpCompute(),
         DpDeparser()) main;
