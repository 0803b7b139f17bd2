// switch on bit<N>, error and serializable enum values (spec 12.7):
// fallthrough labels share the next block, `default` last,
// an empty block ends a case, and each label selects at most one block.
#include <core.p4>
#include <v1model.p4>

error { TooShort, BadTag }
enum bit<8> Op { Add = 1, Sub = 2, Xor = 3, Nop = 4 }
header h_t { bit<8> a; bit<8> b; bit<8> r; bit<8> e; }
struct headers_t { h_t h; }
struct meta_t { }

parser P(packet_in pkt, out headers_t hdr, inout meta_t m,
         inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        verify(hdr.h.b != 0xee, error.BadTag);
        transition accept;
    }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        switch ((Op)hdr.h.a) {
            Op.Add: { hdr.h.r = hdr.h.b + 1; }
            Op.Sub: { hdr.h.r = hdr.h.b - 1; }
            Op.Xor:
            Op.Nop: { hdr.h.r = hdr.h.b ^ 0xff; }
            default: { hdr.h.r = 0xdd; }
        }
        switch (hdr.h.b) {
            0: 
            1: { hdr.h.e = 0x01; }
            8w2: { }
            default: { hdr.h.e = hdr.h.e | 0x80; }
        }
        switch (sm.parser_error) {
            error.NoError: { }
            error.BadTag: { hdr.h.e = 0xbe; }
            default: { hdr.h.e = 0xff; }
        }
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
