// A program that defines V1MODEL_VERSION before including v1model.p4 and
// tests it with #if, as p4c's users do to pick the newer v1model surface
// (`register<T, I>`, `PortId_t`) (issue 17, family 1).
// Written for Janus from p4c's p4include/v1model.p4 header.
#define V1MODEL_VERSION 20200408
#include <core.p4>
#include <v1model.p4>
#include <v1model.p4>

#if V1MODEL_VERSION >= 20200408
typedef PortId_t port_t;
#define REGISTER(T, N) register<T, bit<32>>(N)
#else
typedef bit<9> port_t;
#define REGISTER(T, N) register<T>(N)
#endif

#ifndef _V1_MODEL_P4_
#error "_V1_MODEL_P4_ missing"
#endif

header out_t { bit<8> seen; bit<8> version_low; }
struct headers_t { out_t o; }
struct meta_t { }

parser MyP(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.o); transition accept; }
}
control MyVC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyIng(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    REGISTER(bit<8>, 4) seen;
    apply {
        port_t eport = 2;
        sm.egress_spec = eport;
        bit<8> n;
        seen.read(n, 0);
        n = n + 1;
        seen.write(0, n);
        hdr.o.seen = n;
        hdr.o.version_low = (bit<8>)(__v1model_version % 100);
    }
}
control MyEg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control MyCC(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(MyP(), MyVC(), MyIng(), MyEg(), MyCC(), MyDep()) main;
