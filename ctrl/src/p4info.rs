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

/// One member of a digest's struct as the server packs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DigestField {
    /// `bit<W>`, `int<W>`, `bool`, a serializable enum or a new type
    /// that is not translated: this many bits.
    Bits(u32),
    /// A translated new type (`@p4runtime_translation`), by name: its
    /// data-plane width is the program's.
    Translated(String),
}

impl std::fmt::Display for DigestField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DigestField::Bits(w) => write!(f, "bit<{w}>"),
            DigestField::Translated(name) => write!(f, "{name}"),
        }
    }
}

/// The members of a digest's data, when the P4Info describes it as a
/// struct whose members have fixed widths (through serializable enums and
/// new types); `None` otherwise.
pub fn digest_fields(info: &cfg::P4Info, d: &cfg::Digest) -> Option<Vec<DigestField>> {
    use cfg::p4_data_type_spec::TypeSpec;
    let TypeSpec::Struct(named) = d.type_spec.as_ref()?.type_spec.as_ref()? else {
        return None;
    };
    let ti = info.type_info.as_ref()?;
    let s = ti.structs.get(&named.name)?;
    s.members
        .iter()
        .map(|m| data_field(ti, m.type_spec.as_ref()?, 0))
        .collect()
}

/// A member's type spec as a [`DigestField`] (new types followed at most
/// 16 deep).
fn data_field(ti: &cfg::P4TypeInfo, spec: &cfg::P4DataTypeSpec, depth: u32) -> Option<DigestField> {
    use cfg::p4_bitstring_like_type_spec::TypeSpec as B;
    use cfg::p4_data_type_spec::TypeSpec;
    use cfg::p4_new_type_spec::Representation;
    match spec.type_spec.as_ref()? {
        TypeSpec::Bitstring(b) => match b.type_spec.as_ref()? {
            B::Bit(x) => u32::try_from(x.bitwidth).ok().map(DigestField::Bits),
            B::Int(x) => u32::try_from(x.bitwidth).ok().map(DigestField::Bits),
            B::Varbit(_) => None,
        },
        TypeSpec::Bool(_) => Some(DigestField::Bits(1)),
        TypeSpec::SerializableEnum(named) => {
            let e = ti.serializable_enums.get(&named.name)?;
            u32::try_from(e.underlying_type.as_ref()?.bitwidth)
                .ok()
                .map(DigestField::Bits)
        }
        TypeSpec::NewType(named) if depth < 16 => {
            match ti.new_types.get(&named.name)?.representation.as_ref()? {
                Representation::TranslatedType(_) => {
                    Some(DigestField::Translated(named.name.clone()))
                }
                Representation::OriginalType(o) => data_field(ti, o, depth + 1),
            }
        }
        _ => None,
    }
}

/// The protobuf P4Info of a program's P4Info: its binary form
/// ([`janus_p4::p4info::to_binary`]) decoded, so what controllers get is
/// exactly what `janus p4 compile` writes.
pub fn to_proto(info: &fe::P4Info) -> cfg::P4Info {
    use prost::Message;
    cfg::P4Info::decode(fe::to_binary(info).as_slice()).unwrap_or_default()
}
