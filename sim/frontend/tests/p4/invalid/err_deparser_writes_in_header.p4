// Invalid: the deparser's headers are an `in` parameter and cannot be
// modified (code E0204).
#include <core.p4>

header h_t { bit<8> f; }

struct headers_t { h_t h; }

control Dep(packet_out pkt, in headers_t hdr) {
    apply {
        hdr.h.f = 0; // error: E0204
        pkt.emit(hdr.h);
    }
}
