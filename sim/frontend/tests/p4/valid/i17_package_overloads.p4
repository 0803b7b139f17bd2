// Packages overloaded by their number of parameters (issue 17, family 5),
// which p4c accepts (p4lang/p4c issue 3379): `main` instantiates the one
// its arguments fit. Also parsers and controls overloaded by constructor
// parameters passed as package arguments.
// Written for Janus from p4c's behaviour.
#include <core.p4>

header h_t { bit<8> a; }
parser Prs(packet_in pkt, out h_t h);
control Ctl(inout h_t h);
package Pipe(Prs p, Ctl c);
package Pipe(Prs p, Ctl c, Ctl post);
package Pipe(Prs p, Ctl c, Ctl post, Ctl last);

parser MyP(packet_in pkt, out h_t h) { state start { pkt.extract(h); transition accept; } }
parser MyP(packet_in pkt, out h_t h)(bit<8> skip) {
    state start { pkt.advance((bit<32>)skip); pkt.extract(h); transition accept; }
}
control Add(inout h_t h) { apply { h.a = h.a + 1; } }
control Add(inout h_t h)(bit<8> n) { apply { h.a = h.a + n; } }

Pipe(MyP(8), Add(), Add(2)) main;
