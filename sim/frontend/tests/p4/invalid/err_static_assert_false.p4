// Invalid: a static assertion whose condition is false stops compilation
// (code E0205).
#include <core.p4>

const bit<8> QUEUES = 4;
const bool enough = static_assert(QUEUES >= 8, "need at least 8 queues"); // error: E0205
