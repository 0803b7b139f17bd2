// p4c's include guard of ubpf_model.p4, `_UBPF_MODEL_P4_`, and its
// `UBPF_MODEL_VERSION` (20200515 unless defined first) (issue 17,
// family 1).
// Written for Janus from p4c's p4include/ubpf_model.p4 header.
#include <ubpf_model.p4>
#include <ubpf_model.p4>
#if !defined(_UBPF_MODEL_P4_) || !defined(_CORE_P4_) || UBPF_MODEL_VERSION < 20200515
#error "uBPF include guards or version missing"
#endif
const bit<32> version = __ubpf_model_version;
