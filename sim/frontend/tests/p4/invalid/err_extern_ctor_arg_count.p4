// Invalid: the v1model register constructor needs its size argument
// (code E0203).
#include <core.p4>
#define V1MODEL_VERSION 20200408
#include <v1model.p4>

control C(inout bit<32> value) {
    register<bit<32>, bit<32>>() counts; // error: E0203
    apply {
        counts.read(value, 0);
    }
}
