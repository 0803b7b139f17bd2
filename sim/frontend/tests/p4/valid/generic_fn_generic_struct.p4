#include <core.p4>
#include <v1model.p4>
header in_t { bit<8> a; bit<8> b; }
header out_t { bit<8> x; bit<8> y; }
struct headers_t { in_t i; out_t o; }
struct meta_t { bit<8> m; }
struct Box<T> { T val; }
struct Pair<A, B> { A first; B second; }
header GH<T> { T f; }
typedef Box<bit<8>> B8;
struct Deep { Box<Box<bit<8>>> bb; GH<bit<8>>[2] st; }
void fill<T>(out T dst, in T src) { dst = src; }
T first_of<T, U>(in Pair<T, U> p) { return p.first; }
parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition accept; }
}
control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }
control PIngress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        B8 b = { val = hdr.i.a };
        Deep d;
        d.bb.val.val = b.val + 1;
        d.st[1].setValid();
        d.st[1].f = d.bb.val.val;
        Pair<bit<8>, bool> p = { first = d.st[1].f, second = true };
        bit<8> r;
        fill(r, first_of(p));
        hdr.o.x = r;
        GH<bit<8>> g;
        fill(g, d.st[1]);
        hdr.o.y = g.isValid() ? g.f + 1 : 8w0;
    }
}
control PEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.i); pkt.emit(hdr.o); } }
V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(), PDeparser()) main;
