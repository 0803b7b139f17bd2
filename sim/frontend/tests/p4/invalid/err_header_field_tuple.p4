// Invalid: a header field of tuple type (code E0211).
#include <core.p4>

header tagged_h {
    tuple<bit<8>, bit<8>> tags; // error: E0211
}
