// Language test: every kind of explicit cast the spec allows — widening and
// truncating bit<>, int<> sign extension/truncation, bit<W> <-> int<W>,
// bool <-> bit<1>, int -> bool, int -> bit<W>/int<W>, serializable enum <->
// underlying type, typedef and `type` conversions, and a cast to the same type.
#include <core.p4>

enum bit<8> Proto { TCP = 6, UDP = 17 }
typedef bit<16> word_t;
type bit<16> tag_t;

const int BIG = 0xFFFF;
const int SIGNED_BIG = -5;
const bool TRUE_FROM_INT = (bool)1;        // int -> bool (P4 1.2.2)

control Casts(inout bit<8> b8, inout bit<16> b16, inout int<8> i8,
              inout int<16> i16, inout bool flag, inout Proto proto) {
    apply {
        b16 = (bit<16>)b8;                  // zero-extends
        b8 = (bit<8>)b16;                   // truncates
        i16 = (int<16>)i8;                  // sign-extends
        i8 = (int<8>)i16;                   // truncates
        i8 = (int<8>)b8;                    // same width, reinterpret
        b8 = (bit<8>)i8;
        i8 = (int<8>)(bit<8>)b16;           // change width, then signedness
        i16 = (int<16>)(int<8>)b8;

        bit<1> one = (bit<1>)flag;          // bool -> bit<1>
        flag = (bool)one;                   // bit<1> -> bool
        flag = (bool)1w0 || TRUE_FROM_INT;

        b16 = (bit<16>)BIG;                 // int -> bit<W>
        i16 = (int<16>)SIGNED_BIG;          // int -> int<W>
        i8 = (int<8>)-3;

        b8 = (bit<8>)proto;                 // enum -> underlying
        proto = (Proto)b8;                  // underlying -> enum
        proto = (Proto)8w17;

        word_t w = (word_t)b16;             // typedef is a synonym
        b16 = (bit<16>)w;
        tag_t t = (tag_t)b16;               // into a new type
        b16 = (bit<16>)t + 1;               // and back out of it
        b8 = (bit<8>)(bit<16>)t;
        b8 = (bit<8>)b8;                    // a cast to the same type
    }
}
