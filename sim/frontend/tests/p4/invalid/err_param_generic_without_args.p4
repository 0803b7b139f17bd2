// Invalid: a parameter of a generic extern type needs its type arguments
// (E0214).
#include <core.p4>
extern Store<T> { Store(); T get(); }
extern void dump(Store s); // error: E0214
