// Invalid: an extern method returning `string` (code E0216).
#include <core.p4>

extern Namer {
    Namer();
    string name(); // error: E0216
}
