// p4c's include guard of the PNA file (issue 17, family 1): pna.p4 and
// dpdk/pna.p4 define `__PNA_P4__`; Janus's file, which serves both names,
// defines it (and `_PORTABLE_NIC_ARCHITECTURE_P4_`), so a program can
// include both or test the guard.
// Written for Janus from p4c's p4include/pna.p4 header.
#include <core.p4>
#ifndef __PNA_P4__
#include <pna.p4>
#endif
#include <dpdk/pna.p4>
#if !defined(__PNA_P4__) || !defined(_CORE_P4_)
#error "PNA include guards missing"
#endif

header h_t { bit<8> f; }
control Mark(inout h_t h) {
    apply { h.f = 1; drop_packet(); }
}
