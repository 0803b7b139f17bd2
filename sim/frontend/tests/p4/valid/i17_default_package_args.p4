// Default values in package and block-type parameters (issue 17, family
// 5): a package parameter with a default value may be left out where the
// package is instantiated (the default block is instantiated in its
// place), and a control passed for a control type may leave out the
// type's trailing apply parameters that have default values, as p4c
// accepts (p4c's sample default-control-argument, discussed in p4lang/p4c
// issue 5685).
// Written for Janus from the P4_16 specification (parameters with default
// values) and p4c's behaviour.
#include <core.p4>

header h_t { bit<8> a; }
struct intr_t { bit<8> port; bit<8> len; }
control Ctl(inout h_t h);
control WithMeta(inout h_t h, in intr_t md = { 0, 0 });
control Nop(inout h_t h) { apply { } }
control Inc(inout h_t h)(bit<8> n = 1) { apply { h.a = h.a + n; } }
control UsesMeta(inout h_t h, in intr_t md) { apply { h.a = md.len; } }
package Two(Ctl first, Ctl second = Nop());
package Three(Two pair, WithMeta plain, WithMeta full);
Three(Two(Inc(2)), Inc(), UsesMeta()) main;
