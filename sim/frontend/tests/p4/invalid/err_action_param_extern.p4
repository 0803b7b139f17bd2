// Invalid: an action parameter cannot have an extern type (E0214).
#include <core.p4>
extern Tally { Tally(); void add(); }
action count_it(Tally t) { // error: E0214
    t.add();
}
