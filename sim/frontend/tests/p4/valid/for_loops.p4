// Language test (P4 1.2.5 `for` loops; support may vary between tools):
// three-clause loops, for-in over a range, over a list expression and over a
// header stack, with `break` and `continue`, in controls, actions and functions.
#include <core.p4>

header item_h {
    bit<8> value;
}

struct stack_holder_t {
    item_h[4] items;
}

bit<16> sum_to(in bit<8> n) {
    bit<16> total = 0;
    for (bit<8> i = 0; i < n; i = i + 1) {
        total = total + (bit<16>)i;
    }
    return total;
}

control Loops(inout stack_holder_t h, inout bit<16> acc) {
    action add_range() {
        for (bit<8> x in 8w1 .. 8w3) {
            acc = acc + (bit<16>)x;
        }
    }

    apply {
        for (bit<8> i = 0; i < 4; i = i + 1) {
            acc = acc + 1;
        }

        // Several init and update statements separated by commas.
        for (bit<8> i = 0, bit<8> j = 10; i < j; i = i + 1, j = j - 1) {
            if (i == 3) {
                continue;
            }
            acc = acc + (bit<16>)j;
        }

        for (bit<8> v in (list<bit<8>>){ 2, 4, 8 }) {
            if (v == 8) {
                break;
            }
            acc = acc + (bit<16>)v;
        }

        for (item_h item in h.items) {
            if (item.isValid()) {
                acc = acc + (bit<16>)item.value;
            }
        }

        add_range();
        acc = acc + sum_to(5);
    }
}
