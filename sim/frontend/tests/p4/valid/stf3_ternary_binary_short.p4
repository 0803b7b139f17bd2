// STF rule (ternary masks from digits): the mask covers only the digits
// written, counted from the least significant end. On a 16-bit key,
// `0b1*0` is value 0b100 mask 0b101 (bits 2 and 0 compared, bit 1 and bits
// 15..3 not); `0x1*` is value 0x0010 mask 0x00f0; `0b0` compares bit 0
// only. The larger STF priority wins among matching entries.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<16> k;
    bit<8>  r;
}

struct headers_t { h_t h; }
struct meta_t { }

parser TbParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control TbVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    action set(bit<8> v) { hdr.h.r = v; }
    table t {
        key = { hdr.h.k : ternary; }
        actions = { set; }
        default_action = set(0xee);
    }
    apply {
        sm.egress_spec = 2;
        t.apply();
    }
}

control TbEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control TbCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control TbDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(TbParser(), TbVerify(), Ing(), TbEgress(), TbCompute(),
         TbDeparser()) main;
