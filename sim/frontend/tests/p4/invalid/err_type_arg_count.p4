// Invalid: v1model's register has two type parameters but only one type
// argument is given (code E0203).
#include <core.p4>
#define V1MODEL_VERSION 20200408
#include <v1model.p4>

control C(inout bit<32> value) {
    register<bit<32>>(32w16) counts; // error: E0203
    apply { }
}
