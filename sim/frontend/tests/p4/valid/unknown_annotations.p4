// Annotations Janus does not know are accepted with any body —
// unstructured ones with arbitrary (parenthesis-balanced) tokens and
// structured ones with expression or key-value lists — and draw no
// warning, as p4c's ParseAnnotations (which warns on unknown ones only
// when asked, and neither p4test nor the bmv2 back end asks).
#include <core.p4>

@my_header_anno
header anno_h {
    @field_note("first field") bit<8> a;
    bit<8> b;
}

@MyStructured[1, "text", true]
struct anno_meta_t {
    @MyKeyValue[label = "counter", width = 32]
    bit<32> count;
    @MyEmpty[]
    bit<8> spare;
}

@my_anno(1, "x", some tokens here + 3)
@another(nested (parentheses) are fine)
@my_anno(2)
control Annotated(inout anno_h h, inout anno_meta_t m) {
    @my_action_anno
    action increment() {
        m.count = m.count + 1;
    }

    @my_table_anno(size = 3)
    table t {
        key = {
            h.a : exact @my_key_anno;
        }
        actions = { increment; }
        default_action = increment();
    }

    apply {
        @my_block_anno {
            t.apply();
        }
        @my_variable_anno bit<8> annotated_local = h.a;
        h.b = annotated_local;
    }
}
