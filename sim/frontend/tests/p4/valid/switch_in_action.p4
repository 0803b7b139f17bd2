// Language test (P4 1.2.3+): a switch statement with constant labels inside
// an action body.
#include <core.p4>

control SwitchInAction(inout bit<8> opcode, inout bit<32> acc) {
    action apply_opcode(bit<32> operand) {
        switch (opcode) {
            1: { acc = acc + operand; }
            2: { acc = acc - operand; }
            3:
            4: { acc = acc ^ operand; }
            default: { acc = 0; }
        }
    }

    table ops {
        key = { opcode : exact; }
        actions = { apply_opcode; NoAction; }
        default_action = NoAction();
    }

    apply {
        ops.apply();
    }
}
