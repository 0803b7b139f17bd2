// Invalid: a stray backtick in a declaration (code E0001).
#include <core.p4>

const bit<8> LIMIT = 10;
const bit<8> OTHER = `LIMIT; // error: E0001
