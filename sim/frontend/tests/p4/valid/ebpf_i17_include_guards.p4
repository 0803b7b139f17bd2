// p4c's include guard of ebpf_model.p4, `_EBPF_MODEL_P4_` (issue 17,
// family 1): including the file twice, or testing the guard, works.
// Written for Janus from p4c's p4include/ebpf_model.p4 header.
#include <ebpf_model.p4>
#include <ebpf_model.p4>
#if !defined(_EBPF_MODEL_P4_) || !defined(_CORE_P4_)
#error "eBPF include guards missing"
#endif
header h_t { bit<8> f; }
control Keep(inout h_t h, out bool pass) { apply { pass = h.f != 0; } }
