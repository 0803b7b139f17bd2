// Invalid: two constructors that both take one argument (code E0106).
#include <core.p4>

extern Table2 {
    Table2(bit<32> size);
    Table2(bool shared);
    void touch();
}

control C() {
    Table2(1024) t; // error: E0106
    apply { t.touch(); }
}
