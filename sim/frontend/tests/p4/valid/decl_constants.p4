// Language test: constant declarations at top level, in controls and in
// blocks, of many types (bit, int, bool, int arbitrary precision, struct,
// error, enum, tuple), including constants computed from other constants.
#include <core.p4>

enum Color { Red, Green, Blue }
enum bit<4> Level { Low = 1, High = 8 }

struct version_t {
    bit<16> major;
    bit<16> minor;
}

const bit<32>   COUNTER_BASE = 32w0x10;
const int<16>   OFFSET = -16s300;
const bool      FEATURE_ON = true;
const int       FACTOR = 3;
const int       SCALED = FACTOR * 7 + 1;
const bit<8>    DERIVED = (bit<8>)SCALED;
const version_t VERSION = { major = 1, minor = 4 };
const version_t OTHER_VERSION = { 2, 0 };
const error     DEFAULT_ERROR = error.NoMatch;
const Color     FAVOURITE = Color.Green;
const Level     START_LEVEL = Level.Low;
const tuple<bit<8>, bool> PAIR = { 8w7, false };

control ConstUser(inout bit<32> x, out bool flag) {
    const bit<32> LOCAL_STEP = COUNTER_BASE + 1;

    apply {
        const bit<16> MAJOR = VERSION.major;
        x = x + LOCAL_STEP + (bit<32>)MAJOR + (bit<32>)DERIVED;
        flag = FEATURE_ON && FAVOURITE == Color.Green && START_LEVEL == Level.Low;
        if (OTHER_VERSION.major > VERSION.major) {
            x = x + 1;
        }
        if (DEFAULT_ERROR == error.NoMatch && PAIR[1] == false) {
            x = x + (bit<32>)PAIR[0];
        }
        if (OFFSET < 0) {
            x = x - 1;
        }
    }
}
