// p4c's standard macros in the built-in includes (issue 17, family 1):
// core.p4's include guard `_CORE_P4_`, v1model.p4's `_V1_MODEL_P4_`,
// `V1MODEL_VERSION` (20180101 unless the program defines it first) and
// `V1MODEL_METER_COLOR_*`, and both files included twice. Each test below picks a byte the packet
// carries out, so the STF test shows which branches were compiled.
// Written for Janus from p4c's p4include/core.p4 and v1model.p4 headers.
#ifdef _CORE_P4_
#error "_CORE_P4_ is defined before core.p4 is included"
#endif
#include <core.p4>
#include <core.p4>
#ifndef _CORE_P4_
#error "core.p4 does not define _CORE_P4_"
#endif

// A program that brings its own copy of v1model declarations when no
// v1model.p4 was included: ours was not, so this branch is taken.
#ifndef _V1_MODEL_P4_
#define SAW_NO_V1MODEL 8w0x11
#else
#define SAW_NO_V1MODEL 8w0xee
#endif

#include <v1model.p4>
#include "v1model.p4"
#ifndef _V1_MODEL_P4_
#error "v1model.p4 does not define _V1_MODEL_P4_"
#endif

// v1model.p4's meter colour macros.
#if V1MODEL_METER_COLOR_GREEN != 0 || V1MODEL_METER_COLOR_YELLOW != 1 || V1MODEL_METER_COLOR_RED != 2
#error "v1model.p4's meter colours"
#endif

#if V1MODEL_VERSION >= 20200408
#define VERSION_BYTE 8w0xee
#elif V1MODEL_VERSION == 20180101
#define VERSION_BYTE 8w0x22
#else
#define VERSION_BYTE 8w0xdd
#endif

#if defined(_CORE_P4_) && defined(_V1_MODEL_P4_) && V1MODEL_VERSION > 20180000
#define BOTH_BYTE 8w0x33
#else
#define BOTH_BYTE 8w0xee
#endif

header out_t { bit<8> no_v1; bit<8> version; bit<8> both; bit<8> low; }
struct headers_t { out_t o; }
struct meta_t { }

parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.o); transition accept; }
}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.o.no_v1 = SAW_NO_V1MODEL;
        hdr.o.version = VERSION_BYTE;
        hdr.o.both = BOTH_BYTE;
        // The version is also a constant of the program.
        hdr.o.low = (bit<8>)(__v1model_version % 100);
    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
