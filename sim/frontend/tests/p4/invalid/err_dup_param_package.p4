// Invalid: a package with two parameters named `ingress` (code E0105).
#include <core.p4>

control Pipe(inout bit<8> x);
package Switch(Pipe ingress, Pipe ingress); // error: E0105
