//! Where values live: the storage layout of every type, computed once when
//! a pipeline is loaded.
//!
//! A block instance's variables live in one byte arena. Every scalar is
//! addressed by `(bit offset, width)` and read or written as a bit range
//! (most significant bit first), so one access path serves packed header
//! fields and byte-aligned metadata alike:
//! - scalars (`bit<W>`, `int<W>`, `bool`, enums, `error`) own a byte-aligned
//!   slot of `ceil(W / 8)` bytes, the value in its first `W` bits;
//! - a header's fields are packed back to back as on the wire, so extracting
//!   and deparsing are byte copies; a `varbit` field reserves its maximum
//!   size in place (fields after it keep static offsets) and its current
//!   length is kept after the header; one validity byte follows;
//! - structs, tuples and header unions place their members one after the
//!   other, each byte-aligned; a header stack places its elements at a
//!   fixed stride and keeps its `nextIndex` after them.

use janus_p4::types::{StructKind, Ty, TyId, TypeTable};
use std::collections::HashMap;
use thiserror::Error;

/// A field of a header, struct, union or tuple: its type and where it starts
/// relative to its container (in bits; a multiple of 8 except for packed
/// header fields).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldSlot {
    pub ty: TyId,
    pub bit_offset: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutKind {
    /// `width` bits at the start of the slot. Enums and `error` are 32-bit
    /// scalars holding the member's index (serializable enums their value).
    Scalar {
        width: u32,
        signed: bool,
    },
    /// A `varbit<max>` outside a header: `max` bits, then a 4-byte length.
    Varbit {
        max: u32,
        len_bit_offset: u32,
    },
    Header {
        fields: Vec<FieldSlot>,
        /// Bits on the wire when every varbit field is full.
        wire_bits: u32,
        /// Bit offset of the validity byte.
        valid_bit_offset: u32,
        /// Bit offset of the 4-byte current length of the varbit field, if any.
        varbit_len_bit_offset: Option<u32>,
    },
    Struct {
        fields: Vec<FieldSlot>,
    },
    Union {
        members: Vec<FieldSlot>,
    },
    Stack {
        elem: TyId,
        size: u32,
        /// Bits from one element to the next (a multiple of 8).
        stride: u32,
        /// Bit offset of the 4-byte `nextIndex`.
        next_index_bit_offset: u32,
    },
}

/// The storage of one type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Bytes the value occupies in an arena.
    pub bytes: u32,
    pub kind: LayoutKind,
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum LayoutError {
    #[error("type `{0}` has no run-time storage")]
    NoStorage(String),
    #[error("type `{0}` is larger than Janus supports in one packet state (4 GiB)")]
    TooLarge(String),
}

/// Layouts of the types of one program, computed on demand and cached.
#[derive(Debug)]
pub struct Layouts<'a> {
    types: &'a TypeTable,
    cache: HashMap<TyId, Layout>,
}

fn bytes_for(bits: u64) -> u64 {
    bits.div_ceil(8)
}

impl<'a> Layouts<'a> {
    pub fn new(types: &'a TypeTable) -> Layouts<'a> {
        Layouts {
            types,
            cache: HashMap::new(),
        }
    }

    /// The layout of `ty`.
    ///
    /// ```
    /// use janus_engine::layout::{Layouts, LayoutKind};
    /// use janus_p4::types::TypeTable;
    /// let mut types = TypeTable::new();
    /// let b9 = types.bits(9, false);
    /// let mut layouts = Layouts::new(&types);
    /// let l = layouts.layout(b9).unwrap();
    /// assert_eq!((l.bytes, l.kind.clone()), (2, LayoutKind::Scalar { width: 9, signed: false }));
    /// ```
    pub fn layout(&mut self, ty: TyId) -> Result<Layout, LayoutError> {
        if let Some(l) = self.cache.get(&ty) {
            return Ok(l.clone());
        }
        let l = self.compute(ty)?;
        self.cache.insert(ty, l.clone());
        Ok(l)
    }

    fn too_large(&self, ty: TyId) -> LayoutError {
        LayoutError::TooLarge(self.types.display(ty))
    }

    fn checked(&self, ty: TyId, bits: u64) -> Result<u32, LayoutError> {
        u32::try_from(bits).map_err(|_| self.too_large(ty))
    }

    fn scalar(&self, ty: TyId, width: u32, signed: bool) -> Result<Layout, LayoutError> {
        Ok(Layout {
            bytes: self.checked(ty, bytes_for(width as u64))?,
            kind: LayoutKind::Scalar { width, signed },
        })
    }

    fn compute(&mut self, ty: TyId) -> Result<Layout, LayoutError> {
        let types = self.types;
        match types.get(ty) {
            Ty::Bits { width, signed } => self.scalar(ty, *width, *signed),
            Ty::Bool => self.scalar(ty, 1, false),
            Ty::Error => self.scalar(ty, 32, false),
            Ty::Enum(_) => match types.underlying(ty) {
                Some(repr) => {
                    let inner = self.layout(repr)?;
                    Ok(inner)
                }
                None => self.scalar(ty, 32, false),
            },
            Ty::NewType { of, .. } => self.layout(*of),
            Ty::Varbit { max } => {
                let len_bit_offset = self.checked(ty, bytes_for(*max as u64) * 8)?;
                Ok(Layout {
                    bytes: len_bit_offset / 8 + 4,
                    kind: LayoutKind::Varbit {
                        max: *max,
                        len_bit_offset,
                    },
                })
            }
            Ty::Struct(i) => {
                let info = &types.structs[*i as usize];
                match info.kind {
                    StructKind::Header => {
                        self.header(ty, info.fields.iter().map(|f| f.ty).collect())
                    }
                    StructKind::Struct => {
                        let fields = self.sequential(ty, info.fields.iter().map(|f| f.ty))?;
                        Ok(Layout {
                            bytes: fields.1,
                            kind: LayoutKind::Struct { fields: fields.0 },
                        })
                    }
                    StructKind::HeaderUnion => {
                        let members = self.sequential(ty, info.fields.iter().map(|f| f.ty))?;
                        Ok(Layout {
                            bytes: members.1,
                            kind: LayoutKind::Union { members: members.0 },
                        })
                    }
                }
            }
            Ty::Tuple(items) => {
                let (fields, bytes) = self.sequential(ty, items.clone().into_iter())?;
                Ok(Layout {
                    bytes,
                    kind: LayoutKind::Struct { fields },
                })
            }
            Ty::Stack { elem, size } => {
                let e = self.layout(*elem)?;
                let stride = e.bytes as u64 * 8;
                let next = stride * *size as u64;
                let next_index_bit_offset = self.checked(ty, next)?;
                Ok(Layout {
                    bytes: self.checked(ty, next / 8 + 4)?,
                    kind: LayoutKind::Stack {
                        elem: *elem,
                        size: *size,
                        stride: self.checked(ty, stride)?,
                        next_index_bit_offset,
                    },
                })
            }
            _ => Err(LayoutError::NoStorage(types.display(ty))),
        }
    }

    /// Members one after the other, each starting on a byte.
    fn sequential(
        &mut self,
        ty: TyId,
        members: impl Iterator<Item = TyId>,
    ) -> Result<(Vec<FieldSlot>, u32), LayoutError> {
        let mut offset: u64 = 0;
        let mut fields = Vec::new();
        for m in members {
            let l = self.layout(m)?;
            fields.push(FieldSlot {
                ty: m,
                bit_offset: self.checked(ty, offset * 8)?,
            });
            offset += l.bytes as u64;
        }
        Ok((fields, self.checked(ty, offset)?))
    }

    /// Header fields packed as on the wire; a varbit reserves its maximum.
    fn header(&mut self, ty: TyId, field_tys: Vec<TyId>) -> Result<Layout, LayoutError> {
        let mut bit: u64 = 0;
        let mut fields = Vec::with_capacity(field_tys.len());
        let mut has_varbit = false;
        for f in field_tys {
            fields.push(FieldSlot {
                ty: f,
                bit_offset: self.checked(ty, bit)?,
            });
            bit += self.wire_bits(f)?;
            has_varbit |= matches!(self.types.get(f), Ty::Varbit { .. });
        }
        let wire_bits = self.checked(ty, bit)?;
        let after = bytes_for(bit) * 8;
        let (varbit_len_bit_offset, valid) = if has_varbit {
            (Some(self.checked(ty, after)?), after + 32)
        } else {
            (None, after)
        };
        Ok(Layout {
            bytes: self.checked(ty, valid / 8 + 1)?,
            kind: LayoutKind::Header {
                fields,
                wire_bits,
                valid_bit_offset: self.checked(ty, valid)?,
                varbit_len_bit_offset,
            },
        })
    }

    /// Bits a header field occupies on the wire (a varbit at its maximum; a
    /// struct field of a header packed too).
    fn wire_bits(&mut self, ty: TyId) -> Result<u64, LayoutError> {
        match self.types.get(ty) {
            Ty::Varbit { max } => Ok(*max as u64),
            _ => self
                .types
                .size_in_bits(ty)
                .ok_or_else(|| LayoutError::NoStorage(self.types.display(ty))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use janus_p4::types::{EnumInfo, FieldInfo, StructInfo};

    fn header(types: &mut TypeTable, name: &str, fields: &[(&str, TyId)]) -> TyId {
        types.add_struct(StructInfo {
            kind: StructKind::Header,
            name: name.into(),
            fields: fields
                .iter()
                .map(|(n, t)| FieldInfo {
                    name: (*n).into(),
                    ty: *t,
                    field_lists: Vec::new(),
                })
                .collect(),
        })
    }

    #[test]
    fn header_fields_are_packed_as_on_the_wire() {
        let mut t = TypeTable::new();
        let (b4, b8, b16, b3, b13) = (
            t.bits(4, false),
            t.bits(8, false),
            t.bits(16, false),
            t.bits(3, false),
            t.bits(13, false),
        );
        let ipv4ish = header(
            &mut t,
            "h",
            &[
                ("version", b4),
                ("ihl", b4),
                ("tos", b8),
                ("len", b16),
                ("flags", b3),
                ("frag", b13),
            ],
        );
        let mut l = Layouts::new(&t);
        let lay = l.layout(ipv4ish).unwrap();
        let LayoutKind::Header {
            fields,
            wire_bits,
            valid_bit_offset,
            varbit_len_bit_offset,
        } = lay.kind
        else {
            panic!()
        };
        let offsets: Vec<u32> = fields.iter().map(|f| f.bit_offset).collect();
        assert_eq!(offsets, [0, 4, 8, 16, 32, 35]);
        assert_eq!(
            (wire_bits, valid_bit_offset, varbit_len_bit_offset),
            (48, 48, None)
        );
        assert_eq!(lay.bytes, 7);
    }

    #[test]
    fn varbit_reserves_its_maximum_and_keeps_a_length() {
        let mut t = TypeTable::new();
        let b8 = t.bits(8, false);
        let vb = t.intern(Ty::Varbit { max: 320 });
        let h = header(&mut t, "opts", &[("kind", b8), ("data", vb), ("tail", b8)]);
        let mut l = Layouts::new(&t);
        let lay = l.layout(h).unwrap();
        let LayoutKind::Header {
            fields,
            wire_bits,
            valid_bit_offset,
            varbit_len_bit_offset,
        } = lay.kind
        else {
            panic!()
        };
        assert_eq!(fields[2].bit_offset, 328);
        assert_eq!(wire_bits, 336);
        assert_eq!(varbit_len_bit_offset, Some(336));
        assert_eq!(valid_bit_offset, 368);
        assert_eq!(lay.bytes, 47);
    }

    #[test]
    fn structs_stacks_and_unions_are_byte_aligned() {
        let mut t = TypeTable::new();
        let (b9, b1) = (t.bits(9, false), t.bits(1, false));
        let h = header(&mut t, "h", &[("a", b9), ("b", b1)]);
        let stack = t.intern(Ty::Stack { elem: h, size: 3 });
        let u = t.add_struct(StructInfo {
            kind: StructKind::HeaderUnion,
            name: "u".into(),
            fields: vec![
                FieldInfo {
                    name: "x".into(),
                    ty: h,
                    field_lists: Vec::new(),
                },
                FieldInfo {
                    name: "y".into(),
                    ty: h,
                    field_lists: Vec::new(),
                },
            ],
        });
        let e = t.add_enum(EnumInfo {
            name: "E".into(),
            repr: None,
            members: vec!["A".into()],
            values: vec![],
        });
        let s = t.add_struct(StructInfo {
            kind: StructKind::Struct,
            name: "s".into(),
            fields: vec![
                FieldInfo {
                    name: "port".into(),
                    ty: b9,
                    field_lists: Vec::new(),
                },
                FieldInfo {
                    name: "flag".into(),
                    ty: TypeTable::BOOL,
                    field_lists: Vec::new(),
                },
                FieldInfo {
                    name: "st".into(),
                    ty: stack,
                    field_lists: Vec::new(),
                },
                FieldInfo {
                    name: "u".into(),
                    ty: u,
                    field_lists: Vec::new(),
                },
                FieldInfo {
                    name: "e".into(),
                    ty: e,
                    field_lists: Vec::new(),
                },
                FieldInfo {
                    name: "err".into(),
                    ty: TypeTable::ERROR,
                    field_lists: Vec::new(),
                },
            ],
        });
        let mut l = Layouts::new(&t);
        // A 10-bit header: 2 wire bytes + validity byte.
        assert_eq!(l.layout(h).unwrap().bytes, 3);
        let st = l.layout(stack).unwrap();
        assert_eq!(st.bytes, 3 * 3 + 4);
        assert!(matches!(
            st.kind,
            LayoutKind::Stack {
                stride: 24,
                next_index_bit_offset: 72,
                ..
            }
        ));
        let LayoutKind::Struct { fields } = l.layout(s).unwrap().kind else {
            panic!()
        };
        let offsets: Vec<u32> = fields.iter().map(|f| f.bit_offset / 8).collect();
        // port 2 bytes, flag 1, stack 13, union 6, enum 4, error 4.
        assert_eq!(offsets, [0, 2, 3, 16, 22, 26]);
        assert_eq!(l.layout(s).unwrap().bytes, 30);
    }

    #[test]
    fn compile_time_types_have_no_storage() {
        let t = TypeTable::new();
        let mut l = Layouts::new(&t);
        assert!(matches!(
            l.layout(TypeTable::INF_INT),
            Err(LayoutError::NoStorage(_))
        ));
        assert!(matches!(
            l.layout(TypeTable::STRING),
            Err(LayoutError::NoStorage(_))
        ));
    }
}
