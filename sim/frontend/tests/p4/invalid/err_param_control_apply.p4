// Invalid: parsers and controls are passed to constructors, not to apply
// parameters (E0214).
#include <core.p4>
control Stage(inout bit<8> x);
control Chain(Stage s); // error: E0214
