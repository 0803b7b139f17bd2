// Invalid: a control parameter named like the control's type parameter
// (code E0105).
#include <core.p4>

control Gen<T>(inout T T) { // error: E0105
    apply { }
}
