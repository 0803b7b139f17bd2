// Warning: a serializable enum member's value is truncated to the underlying
// type; 512 does not fit bit<8> (W0006, a warning as in p4c, not an error).
#include <core.p4>

enum bit<8> QueueClass {
    Bulk     = 0,
    Standard = 100,
    Express  = 512 // warning: W0006
}
