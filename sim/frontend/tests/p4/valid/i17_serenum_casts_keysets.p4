// Casts and constants with serializable enums (issue 17, family 4):
// `(int)` of compile-time `bit<W>` values, enum members in masks and
// ranges of select cases and table entries (`E.IPV4 &&& 0xff00`, with the
// mask in the underlying type, as p4c's typeSet allows), slices of enum
// values, and arithmetic on enum members folded at compile time (also in
// another enum's member values).
// Written for Janus from the P4_16 specification and p4c's
// frontends/p4/typeChecking/typeCheckExpr.cpp.
#include <core.p4>
#include <v1model.p4>

enum bit<16> EtherType { IPV4 = 0x0800, ARP = 0x0806, IPV6 = 0x86dd, VLAN = 0x8100 }
enum bit<8> Kind { Low = 1, High = 2 }
const bit<8> K = 3;
enum bit<8> Derived { A = K * 2, B = (bit<8>)Kind.High + 1, C = Kind.Low | 8w0x10, D = ~Kind.Low }

const int SHIFT = (int)K + 1;                       // 4
const int HIGH_BYTE = (int)EtherType.IPV6[15:8];    // 0x86
const bit<16> MASKED = EtherType.ARP & 0xff00;      // 0x0800
const bit<8> LOW = EtherType.ARP[7:0];              // 0x06
const bit<16> NEXT = EtherType.IPV4 + 1;            // 0x0801
const bit<8> NEG = -Kind.Low;                       // 0xff
const bool CHECKED = static_assert((int)EtherType.VLAN == 0x8100 && (int)(-8s3) == -3,
                                   "(int) of enum members and signed constants");

header eth_t { EtherType type; bit<8> kind; }
header out_t { bit<8> path; bit<8> tbl; bit<8> low; bit<8> consts; bit<8> derived; }
struct headers_t { eth_t eth; out_t o; }
struct meta_t { bit<8> path; }

parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.type) {
            EtherType.IPV6: v6;
            EtherType.IPV4 &&& 0xff00: v4ish;       // 0x08xx
            EtherType.VLAN .. 0x81ff: vlan;
            default: other;
        }
    }
    state v4ish { meta.path = 1; transition accept; }
    state v6 { meta.path = 2; transition accept; }
    state vlan { meta.path = 3; transition accept; }
    state other { meta.path = 4; transition accept; }
}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action mark(bit<8> v) { hdr.o.tbl = v; }
    table classify {
        key = { hdr.eth.type : ternary; hdr.eth.kind : exact; }
        actions = { mark; NoAction; }
        const entries = {
            (EtherType.ARP, (bit<8>)Kind.High) : mark(0x22);
            (EtherType.IPV4 &&& 0xff00, (bit<8>)Kind.Low) : mark(0x11);
            (EtherType.IPV6 &&& EtherType.IPV6, 2) : mark(0x66);
        }
        default_action = mark(0xee);
    }
    apply {
        sm.egress_spec = 1;
        hdr.o.setValid();
        hdr.o.path = meta.path;
        classify.apply();
        hdr.o.low = hdr.eth.type[7:0] << SHIFT;
        hdr.o.consts = (bit<8>)(HIGH_BYTE - 0x80) + (bit<8>)(MASKED >> 8) + LOW
            + (bit<8>)(NEXT - 0x0800) + (NEG == 0xff ? 8w0x10 : 8w0);
        hdr.o.derived = Derived.A + Derived.B + Derived.C + (Derived.D == 0xfe ? 8w0x80 : 8w0);
    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.o); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
