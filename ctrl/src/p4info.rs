//! The front end's P4Info (`janus_p4::p4info`) as the protobuf message
//! (`p4.config.v1.P4Info`), and the comparison the server makes between a
//! client's P4Info and the program's.
//!
//! The conversion is the front end's binary encoding decoded: every field
//! p4c writes, `type_info` included.

use crate::proto::p4::config::v1 as cfg;
use janus_p4::p4info as fe;

/// The width of a register cell as its P4Info type says (`bit<W>` or
/// `int<W>`).
pub fn register_width(r: &cfg::Register) -> Option<u32> {
    use cfg::p4_bitstring_like_type_spec::TypeSpec as B;
    use cfg::p4_data_type_spec::TypeSpec;
    match r.type_spec.as_ref()?.type_spec.as_ref()? {
        TypeSpec::Bitstring(b) => match b.type_spec.as_ref()? {
            B::Bit(x) => u32::try_from(x.bitwidth).ok(),
            B::Int(x) => u32::try_from(x.bitwidth).ok(),
            B::Varbit(_) => None,
        },
        _ => None,
    }
}

/// The widths of a digest's fields, from the struct its `type_spec`
/// names in the P4Info's `type_info` (members `bit<W>` or `int<W>`);
/// `None` when the P4Info does not describe it so.
pub fn digest_fields(info: &cfg::P4Info, d: &cfg::Digest) -> Option<Vec<u32>> {
    use cfg::p4_bitstring_like_type_spec::TypeSpec as B;
    use cfg::p4_data_type_spec::TypeSpec;
    let TypeSpec::Struct(named) = d.type_spec.as_ref()?.type_spec.as_ref()? else {
        return None;
    };
    let s = info.type_info.as_ref()?.structs.get(&named.name)?;
    s.members
        .iter()
        .map(|m| match m.type_spec.as_ref()?.type_spec.as_ref()? {
            TypeSpec::Bitstring(b) => match b.type_spec.as_ref()? {
                B::Bit(x) => u32::try_from(x.bitwidth).ok(),
                B::Int(x) => u32::try_from(x.bitwidth).ok(),
                B::Varbit(_) => None,
            },
            TypeSpec::Bool(_) => Some(1),
            _ => None,
        })
        .collect()
}

/// The protobuf P4Info of a program's P4Info: its binary form
/// ([`janus_p4::p4info::to_binary`]) decoded, so what controllers get is
/// exactly what `janus p4 compile` writes.
pub fn to_proto(info: &fe::P4Info) -> cfg::P4Info {
    use prost::Message;
    cfg::P4Info::decode(fe::to_binary(info).as_slice()).unwrap_or_default()
}

/// Why a client's P4Info does not describe the program: the first
/// problem found, in words (for an INVALID_ARGUMENT status); `None` when
/// it does.
///
/// The P4Info is first checked on its own, then compared with the
/// program's by names and shapes, not by ids: see
/// [`crate::p4info_check::check`], which also gives the P4Info the server
/// runs with (the program's, with the client's ids).
pub fn mismatch(client: &cfg::P4Info, program: &cfg::P4Info) -> Option<String> {
    crate::p4info_check::check(client, program).err()
}
