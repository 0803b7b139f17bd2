//! The annotations Janus knows: from the P4_16 specification, P4Runtime,
//! and the architectures it ships (v1model, PSA, PNA). Others are kept in
//! the AST but draw a warning.

/// Known annotation names.
pub const KNOWN: &[&str] = &[
    // P4_16 language specification.
    "atomic",
    "defaultonly",
    "hidden",
    "id",
    "match",
    "name",
    "optional",
    "pure",
    "noSideEffects",
    "priority",
    "tableonly",
    "deprecated",
    "noWarn",
    "pkginfo",
    "brief",
    "description",
    "likely",
    "unlikely",
    "pragma",
    "globalname",
    // P4Runtime.
    "controller_header",
    "p4runtime_translation",
    "p4runtime_translation_mappings",
    "refers_to",
    "format",
    "max_group_size",
    "selector_size_semantics",
    "max_member_weight",
    "entry_restriction",
    "action_restriction",
    "platform_property",
    // Janus's control plane: what tenant roles may touch (janus_ctrl::roles).
    "janus_tenant_key",
    "janus_tenant_index",
    // v1model / bmv2.
    "field_list",
    "metadata",
    "alias",
    "intrinsic_metadata",
    "synchronous",
    "unused",
    // PSA / PNA.
    "idletime",
    "psa_idle_timeout",
    "noWarnUnused",
    "add_on_miss",
    // eBPF / uBPF models and their programs.
    "deparser",
    "ethernetaddress",
    "ipv4address",
    "ipv6address",
    // Seen on public programs of other toolchains (Stratum, p4-constraints,
    // SONiC PINS, DPDK, p4-guide); accepted without a warning.
    "switchstack",
    "not_extracted_in_egress",
    "file",
    "line",
    "mode",
    "mvlt_type",
    "entry_constraint",
    "sai_action",
    "sai_action_param",
    "sai_acl",
    "sai_field",
    "SaiTable",
    "proto_package",
    "proto_id",
    // Kept by p4c's P4_14 translation: a counter's `min_width` attribute.
    "min_width",
];

/// Prefix of the P4_14 field-allocation pragmas (`@pa_solitary`,
/// `@pa_container_size`, ...) that p4c's translation passes through as
/// annotations; Janus accepts them all without a warning.
const PHV_PRAGMA_PREFIX: &str = "pa_";

/// True if `name` is an annotation Janus knows.
pub fn is_known(name: &str) -> bool {
    KNOWN.contains(&name) || name.starts_with(PHV_PRAGMA_PREFIX)
}
