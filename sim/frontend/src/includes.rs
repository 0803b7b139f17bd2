//! Architecture include files written by this project and built into Janus,
//! so `#include <core.p4>` and `#include <v1model.p4>` work with no set-up.

/// The built-in include files: (name as written in `#include <...>`, text).
pub const BUILTIN: &[(&str, &str)] = &[
    ("core.p4", include_str!("../../../p4/include/core.p4")),
    ("v1model.p4", include_str!("../../../p4/include/v1model.p4")),
    ("psa.p4", include_str!("../../../p4/include/psa.p4")),
    ("pna.p4", include_str!("../../../p4/include/pna.p4")),
    // The names other toolchains give the same architectures' files; their
    // include guards make a program that includes two of them harmless.
    ("bmv2/psa.p4", include_str!("../../../p4/include/psa.p4")),
    ("dpdk/psa.p4", include_str!("../../../p4/include/psa.p4")),
    ("dpdk/pna.p4", include_str!("../../../p4/include/pna.p4")),
    (
        "ebpf_model.p4",
        include_str!("../../../p4/include/ebpf_model.p4"),
    ),
    (
        "ubpf_model.p4",
        include_str!("../../../p4/include/ubpf_model.p4"),
    ),
];

/// The text of the built-in include `name`, if there is one.
pub fn builtin(name: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}
