// String literals concatenate with `++` (p4c types the result `string`);
// the message reaches log_msg as one constant.
#include <core.p4>
#include <v1model.p4>
control C(inout bit<8> x) {
    apply { log_msg("level " ++ "two: {}", {x}); }
}
