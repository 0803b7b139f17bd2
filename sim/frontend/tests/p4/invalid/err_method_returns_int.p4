// Invalid: an extern method returning `int` (code E0216).
#include <core.p4>

extern Sizer {
    Sizer();
    int size(); // error: E0216
}
