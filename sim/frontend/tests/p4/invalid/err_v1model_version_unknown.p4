// Invalid: a v1model version newer than the latest one (code E0501).
#define V1MODEL_VERSION 20240101 // error: E0501
#include <core.p4>
#include <v1model.p4>

struct h_t { }
struct m_t { }
parser P(packet_in b, out h_t h, inout m_t m, inout standard_metadata_t sm) {
    state start { transition accept; }
}
control V(inout h_t h, inout m_t m) { apply { } }
control I(inout h_t h, inout m_t m, inout standard_metadata_t sm) { apply { } }
control E(inout h_t h, inout m_t m, inout standard_metadata_t sm) { apply { } }
control D(packet_out b, in h_t h) { apply { } }
V1Switch(P(), V(), I(), E(), V(), D()) main;
