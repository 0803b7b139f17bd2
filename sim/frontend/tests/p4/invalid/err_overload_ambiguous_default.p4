// Invalid: overloads that differ only by a parameter with a default value;
// a one-argument call matches both (code E0106).
#include <core.p4>

extern Log {
    Log();
    void write(in bit<32> value);
    void write(in bit<32> value, in bit<8> level = 0);
}

control C(in bit<32> v) {
    Log() log;
    apply {
        log.write(v); // error: E0106
    }
}
