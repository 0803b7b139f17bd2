// Invalid: compile-time division by zero (code E0210).
#include <core.p4>

const int BUCKETS = 0;
const int PER_BUCKET = 1024 / BUCKETS; // error: E0210
