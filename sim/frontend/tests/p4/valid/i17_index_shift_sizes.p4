// Stack indices, shift amounts and size methods as p4c accepts them
// (issue 17, family 5): a stack indexed by a typedef or a `type` of
// `bit<W>` or by a serializable enum; a shift by a non-negative signed
// constant (p4c makes it unsigned); `minSizeInBits`, `maxSizeInBits`,
// `minSizeInBytes` and `maxSizeInBytes` on headers, structs, stacks,
// fixed-width values and type names, with varbits counted at 0 (min) and at
// their maximum (max).
// Written for Janus from p4c's frontends/p4/typeChecking/typeCheckExpr.cpp
// (ArrayIndex, shift, Member).
#include <core.p4>
#include <v1model.p4>

typedef bit<2> idx_t;
type bit<2> slot_t;
enum bit<2> Slot { First = 0, Last = 3 }

header e_t { bit<8> v; }
header vh_t { bit<8> len; varbit<32> opt; }
header out_t { bit<8> s0; bit<8> s1; bit<8> s2; bit<8> sizes; bit<8> more; bit<8> shifted; }
struct headers_t { e_t[4] st; out_t o; vh_t vh; }
struct meta_t { bit<16> pair; }

parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.st[0]); pkt.extract(hdr.st[1]); pkt.extract(hdr.st[2]);
                  pkt.extract(hdr.st[3]); transition accept; }
}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.o.setValid();
        idx_t i = 1;
        slot_t j = (slot_t)2w2;
        const idx_t K = 3;
        hdr.o.s0 = hdr.st[i].v;
        hdr.o.s1 = hdr.st[j].v + hdr.st[K].v;
        hdr.o.s2 = hdr.st[Slot.Last].v + hdr.st[Slot.First].v;
        // e_t 8 bits; vh_t 8..40 bits (1..5 bytes); the stack 32; out_t 48;
        // headers_t 8*4 + 48 + 8..40.
        hdr.o.sizes = (bit<8>)hdr.st[0].minSizeInBits() + (bit<8>)hdr.vh.maxSizeInBytes()
            + (bit<8>)hdr.vh.minSizeInBytes() + (bit<8>)e_t.maxSizeInBits();
        hdr.o.more = (bit<8>)hdr.st.minSizeInBits() + (bit<8>)meta.pair.maxSizeInBits()
            + (bit<8>)hdr.minSizeInBits() + (bit<8>)(hdr.maxSizeInBits() - hdr.minSizeInBits());
        const int<8> TWO = 2;
        bit<8> x = hdr.st[0].v << 8s1;
        x = x >> (int<4>)1;
        hdr.o.shifted = (x << TWO) | (hdr.st[1].v >> 3s0);
    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.o); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
