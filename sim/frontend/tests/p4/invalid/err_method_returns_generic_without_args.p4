// Invalid: a method cannot return a generic extern type without its type
// arguments (E0211).
#include <core.p4>
extern Cell<T> { Cell(); }
extern Pool {
    Pool();
    Cell take(); // error: E0211
}
