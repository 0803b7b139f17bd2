// Invalid: the file includes itself with no include guard, so includes nest
// without bound (code E0024). It declares nothing else, so the nesting
// itself is the only problem.
#include "err_include_recursive.p4" // error: E0024
