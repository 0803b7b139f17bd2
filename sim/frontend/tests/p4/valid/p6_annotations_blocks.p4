// Annotations with arbitrary bodies are accepted (spec 18.2: known
// annotations with unstructured token bodies, `@pragma`), `@atomic`
// blocks, nested blocks with their own locals, empty statements and
// declarations after statements (spec 6.8 scoping).
#include <core.p4>
#include <v1model.p4>

@description(1, "two", three + 4 [x] {y} )
header h_t {
    @format(IPV4_ADDRESS) bit<8> a;
    @sai_field(SAI_X, 0 .. 255) @brief() bit<8> b;
    bit<8> c;
    bit<8> d;
}
struct headers_t { h_t h; }
struct meta_t { }

@noWarn("unused")
const bit<8> K = 3;

parser P(packet_in pkt, out headers_t hdr, inout meta_t m,
         inout standard_metadata_t sm) {
    @name("start_state") state start { pkt.extract(hdr.h); transition accept; }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }

@pragma my_pragma with words 1 2 3
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    @hidden action hid() { hdr.h.d = hdr.h.d + 1; }
    @name("renamed") @platform_property[a = 1, b = "x"]
    action vis(@unused bit<8> unusedp) { hdr.h.c = hdr.h.c + K; }
    apply {
        sm.egress_spec = 2;
        ;
        bit<8> x = 1;
        {
            bit<8> y = 0x10;
            {
                bit<8> z = y + 0x10;
                hdr.h.a = z;
            }
            hdr.h.b = y;
            ;;
        }
        @atomic {
            hdr.h.a = hdr.h.a + x;
        }
        @atomic @likely { { hid(); } }
        vis(0);
        bit<8> late = hdr.h.a + hdr.h.b;
        hdr.h.b = late;
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
