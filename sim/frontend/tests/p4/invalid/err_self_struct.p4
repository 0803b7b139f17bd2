// Invalid: a struct containing itself (code E0215).
#include <core.p4>

struct node_t {
    bit<8> value;
    node_t next; // error: E0215
}
