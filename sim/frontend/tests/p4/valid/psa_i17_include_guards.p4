// p4c's include guards of the PSA file (issue 17, family 1): psa.p4 defines
// `_PORTABLE_SWITCH_ARCHITECTURE_P4_`, its bmv2/ and dpdk/ variants
// `__PSA_P4__`; Janus's one file serves all three names and defines both,
// so including two of them, or testing a guard, works as with p4c. Like
// p4c's psa.p4 it also defines `PSA_CORE_TYPES`.
// Written for Janus from p4c's p4include/psa.p4 and bmv2/psa.p4 headers.
#include <core.p4>
#ifdef _PORTABLE_SWITCH_ARCHITECTURE_P4_
#error "psa.p4 guard defined too early"
#endif
#include <psa.p4>
#include <bmv2/psa.p4>
#include <dpdk/psa.p4>
#if !defined(_PORTABLE_SWITCH_ARCHITECTURE_P4_) || !defined(__PSA_P4__) || !defined(_CORE_P4_) \
    || !defined(PSA_CORE_TYPES)
#error "PSA include guards missing"
#endif

header h_t { bit<8> f; }
struct headers_t { h_t h; }
control Bump(inout headers_t hdr, inout psa_ingress_output_metadata_t ostd) {
    apply { hdr.h.f = hdr.h.f + 1; ingress_drop(ostd); }
}
