// Language test: plain enums, serializable enums over bit<> and int<> and
// over a typedef, enum member access, and extending `error` with new members
// (possibly in several declarations, which are merged).
#include <core.p4>

typedef bit<8> opcode_base_t;

enum Direction { Inbound, Outbound }
enum bit<3> Priority { Low = 0, Medium = 3, High = 7 }
enum int<8> Delta { Minus = -1, Zero = 0, Plus = 1 }
enum opcode_base_t Opcode { Read = 1, Write = 2, Alias = 2 }

error { BadOpcode, TooManyRetries }
error { SecondBatch }

control Enums(in Direction dir, inout Priority prio, out error result,
              inout bit<3> raw) {
    apply {
        result = error.NoError;
        if (dir == Direction.Outbound) {
            prio = Priority.High;
        } else if (prio != Priority.Low) {
            prio = (Priority)raw;          // explicit cast from the underlying type
        }
        raw = (bit<3>)prio;                // explicit cast to the underlying type
        bit<3> implicit = Priority.Medium; // implicit cast to the underlying type
        raw = raw | implicit;

        int<8> d = Delta.Plus;
        d = d + Delta.Minus;
        Opcode op = Opcode.Alias;
        if (op == Opcode.Write && d == 0) {
            result = error.BadOpcode;
        } else if (raw == 7) {
            result = error.SecondBatch;
        }
    }
}
