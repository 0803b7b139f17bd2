// Invalid: a serializable enum member's value must fit the underlying type;
// 512 does not fit bit<8> (code E0200, an error in p4c's type checker).
#include <core.p4>

enum bit<8> QueueClass {
    Bulk     = 0,
    Standard = 100,
    Express  = 512 // error: E0200
}
