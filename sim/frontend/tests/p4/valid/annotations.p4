// Language test: the standard annotations on the elements they apply to —
// @name, @id, @hidden, @noWarn, @atomic, @pure, @noSideEffects, @optional,
// @deprecated, @tableonly / @defaultonly in an action list, @name on key
// elements, and several annotations on one element. (Unknown and structured
// annotations are in warn/unknown_annotations.p4, since they draw a warning.)
#include <core.p4>

@pure extern bit<16> checksum16(in bit<32> data);
@noSideEffects extern bit<32> read_clock();
extern void trace_value(in bit<32> value, @optional in bit<8> level);

@deprecated("use the two-argument form instead")
extern void old_trace(in bit<32> value);

header anno_h {
    bit<8> a;
    bit<8> b;
}

struct anno_meta_t {
    bit<32> count;
}

control Annotated(inout anno_h h, inout anno_meta_t m) {
    @name("bump") @id(0x01000001)
    action increment() {
        m.count = m.count + 1;
    }

    @hidden
    action internal_only() {
        h.b = 0;
    }

    action never_default() {
        h.a = 1;
    }

    @name("annotated_table") @id(0x02000001)
    table t {
        key = {
            h.a : exact @name("field_a");
            h.b : ternary @name("field_b");
        }
        actions = {
            increment;
            @tableonly never_default;
            @defaultonly internal_only;
        }
        default_action = internal_only();
        @noWarn("unused") size = 64;
    }

    apply {
        @atomic {
            t.apply();
            m.count = m.count + (bit<32>)checksum16(read_clock());
        }
        trace_value(m.count);
        trace_value(m.count, 8w2);
        @noWarn("unused") bit<8> annotated_local = h.a;
    }
}
