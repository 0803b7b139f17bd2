//! P4Info's view of P4 types (`P4DataTypeSpec`) and the `type_info` the
//! named ones are described in, as p4c's `TypeSpecConverter` writes them:
//! every type P4Info refers to (match fields, parameters, packet metadata,
//! register cells, digested data) is converted, and each struct, header,
//! header union, enum, serializable enum and `type` it reaches gets an
//! entry under its name.

use super::annotations::{self, Annotations};
use crate::ir;
use crate::types::{StructKind, Ty, TyId};
use std::collections::BTreeMap;

/// A `P4DataTypeSpec`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeSpec {
    Bit(u32),
    Int(u32),
    Varbit(u32),
    Bool,
    Tuple(Vec<TypeSpec>),
    Struct(String),
    Header(String),
    HeaderUnion(String),
    HeaderStack(String, u32),
    HeaderUnionStack(String, u32),
    Enum(String),
    Error,
    SerializableEnum(String),
    NewType(String),
}

/// How a `type` is represented: its underlying type, or the translation
/// `@p4runtime_translation(uri, bit<W> | string)` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NewTypeRepr {
    Original(TypeSpec),
    /// The URI, and the SDN width (`None`: an SDN string).
    Translated(String, Option<u32>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewType {
    pub repr: NewTypeRepr,
    pub annotations: Annotations,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SerializableEnum {
    pub width: u32,
    /// (member, value as P4Runtime bytes of the width).
    pub members: Vec<(String, Vec<u8>)>,
}

/// `p4.config.v1.P4TypeInfo`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TypeInfo {
    pub structs: BTreeMap<String, Vec<(String, TypeSpec)>>,
    pub headers: BTreeMap<String, Vec<(String, TypeSpec)>>,
    pub header_unions: BTreeMap<String, Vec<(String, String)>>,
    pub enums: BTreeMap<String, Vec<String>>,
    /// The members of `error`, once any type refers to it.
    pub error: Option<Vec<String>>,
    pub serializable_enums: BTreeMap<String, SerializableEnum>,
    pub new_types: BTreeMap<String, NewType>,
}

/// Converts types, filling a [`TypeInfo`].
pub(super) struct Converter<'a> {
    pub p: &'a ir::Program,
    pub info: TypeInfo,
}

impl Converter<'_> {
    /// The spec of `ty`, describing the named types it reaches.
    pub fn convert(&mut self, ty: TyId) -> TypeSpec {
        let p = self.p;
        match p.types.get(ty) {
            Ty::Bits { width, signed } => {
                if *signed {
                    TypeSpec::Int(*width)
                } else {
                    TypeSpec::Bit(*width)
                }
            }
            Ty::Varbit { max } => TypeSpec::Varbit(*max),
            Ty::Bool => TypeSpec::Bool,
            Ty::Error => {
                if self.info.error.is_none() {
                    self.info.error = Some(p.errors.clone());
                }
                TypeSpec::Error
            }
            Ty::Tuple(items) => TypeSpec::Tuple(items.iter().map(|&t| self.convert(t)).collect()),
            Ty::Stack { elem, size } => {
                let name = self.named(*elem);
                match self.convert(*elem) {
                    TypeSpec::HeaderUnion(_) => TypeSpec::HeaderUnionStack(name, *size),
                    _ => TypeSpec::HeaderStack(name, *size),
                }
            }
            Ty::Struct(_) => self.structure(ty),
            Ty::Enum(_) => self.enumeration(ty),
            Ty::NewType { name, of } => {
                let (name, of) = (name.clone(), *of);
                if !self.info.new_types.contains_key(&name) {
                    self.new_type(ty, &name, of);
                }
                TypeSpec::NewType(name)
            }
            _ => TypeSpec::Bit(0),
        }
    }

    fn named(&self, ty: TyId) -> String {
        self.p
            .types
            .struct_info(ty)
            .map_or_else(|| self.p.types.display(ty), |s| s.name.clone())
    }

    fn structure(&mut self, ty: TyId) -> TypeSpec {
        let Some(s) = self.p.types.struct_info(ty).cloned() else {
            return TypeSpec::Bit(0);
        };
        let name = s.name.clone();
        match s.kind {
            StructKind::Struct => {
                if !self.info.structs.contains_key(&name) {
                    self.info.structs.insert(name.clone(), Vec::new());
                    let members = s
                        .fields
                        .iter()
                        .map(|f| (f.name.clone(), self.convert(f.ty)))
                        .collect();
                    self.info.structs.insert(name.clone(), members);
                }
                TypeSpec::Struct(name)
            }
            StructKind::Header => {
                if !self.info.headers.contains_key(&name) {
                    let members = s
                        .fields
                        .iter()
                        .map(|f| (f.name.clone(), self.convert(f.ty)))
                        .collect();
                    self.info.headers.insert(name.clone(), members);
                }
                TypeSpec::Header(name)
            }
            StructKind::HeaderUnion => {
                if !self.info.header_unions.contains_key(&name) {
                    self.info.header_unions.insert(name.clone(), Vec::new());
                    let members = s
                        .fields
                        .iter()
                        .map(|f| {
                            self.convert(f.ty);
                            (f.name.clone(), self.named(f.ty))
                        })
                        .collect();
                    self.info.header_unions.insert(name.clone(), members);
                }
                TypeSpec::HeaderUnion(name)
            }
        }
    }

    fn enumeration(&mut self, ty: TyId) -> TypeSpec {
        let Some(e) = self.p.types.enum_info(ty).cloned() else {
            return TypeSpec::Bit(0);
        };
        match e.repr {
            None => {
                self.info
                    .enums
                    .entry(e.name.clone())
                    .or_insert_with(|| e.members.clone());
                TypeSpec::Enum(e.name)
            }
            Some(repr) => {
                let width = super::width(&self.p.types, repr);
                self.info
                    .serializable_enums
                    .entry(e.name.clone())
                    .or_insert_with(|| SerializableEnum {
                        width,
                        members: e
                            .members
                            .iter()
                            .zip(&e.values)
                            .map(|(m, v)| (m.clone(), super::int_bytes(v, width)))
                            .collect(),
                    });
                TypeSpec::SerializableEnum(e.name)
            }
        }
    }

    fn new_type(&mut self, ty: TyId, name: &str, of: TyId) {
        let decl = self
            .p
            .type_annotations
            .get(&ty)
            .map(|a| a.decl.clone())
            .unwrap_or_default();
        // Walk the chain of new types down to the representation.
        let mut under = of;
        while let Ty::NewType { of, .. } = self.p.types.get(under) {
            under = *of;
        }
        let original = self.convert(under);
        let repr = match annotations::translation(&decl) {
            Some((uri, sdn)) => NewTypeRepr::Translated(uri, sdn),
            None => NewTypeRepr::Original(original),
        };
        self.info.new_types.insert(
            name.to_string(),
            NewType {
                repr,
                annotations: annotations::collect(&decl, &["p4runtime_translation"]),
            },
        );
    }
}
