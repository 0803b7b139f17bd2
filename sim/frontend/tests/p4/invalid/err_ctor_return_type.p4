// Invalid: a method named like its extern is its constructor, which has no
// return type (code E0216).
#include <core.p4>
extern Meter {
    Meter();
    void Meter(in bit<8> rate); // error: E0216
}
