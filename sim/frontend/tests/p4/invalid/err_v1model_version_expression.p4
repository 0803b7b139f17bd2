// Invalid: V1MODEL_VERSION must be an integer literal, not an expression
// (code E0501).
#define V1MODEL_VERSION (20200408 + 0) // error: E0501
#include <core.p4>
#include <v1model.p4>
