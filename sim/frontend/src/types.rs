//! Semantic types, interned in a [`TypeTable`] so that a type is a small
//! copyable [`TyId`] and type equality is id equality.

use std::collections::HashMap;

/// An interned type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TyId(pub u32);

/// Field of a header, header union or struct.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FieldInfo {
    pub name: String,
    pub ty: TyId,
    /// The ids of `@field_list(...)` on the field (integer literals):
    /// v1model's lists of metadata kept by resubmit, recirculate and clone.
    pub field_lists: Vec<u32>,
}

/// Which of the struct-like kinds a [`StructInfo`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StructKind {
    Header,
    HeaderUnion,
    Struct,
}

/// A header, header union or struct (generic ones once per specialisation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StructInfo {
    pub kind: StructKind,
    pub name: String,
    pub fields: Vec<FieldInfo>,
}

/// An enum; serializable enums have an underlying `bit<W>`/`int<W>` type
/// and a value per member.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EnumInfo {
    pub name: String,
    pub repr: Option<TyId>,
    pub members: Vec<String>,
    /// Member values (serializable enums only), as two's complement bits of
    /// the underlying width.
    pub values: Vec<num_bigint::BigInt>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// The type of an expression that already had an error: compatible with
    /// everything, so one mistake gives one diagnostic.
    Unknown,
    Void,
    Bool,
    String,
    Error,
    MatchKind,
    /// `int`: infinite precision, compile-time only.
    InfInt,
    Bits {
        width: u32,
        signed: bool,
    },
    Varbit {
        max: u32,
    },
    Struct(u32),
    Enum(u32),
    /// `type T' U`: a distinct type over `U`.
    NewType {
        name: String,
        of: TyId,
    },
    Stack {
        elem: TyId,
        size: u32,
    },
    Tuple(Vec<TyId>),
    List(TyId),
    /// A type parameter of a generic declaration, by index in the
    /// declaration's parameter list, with its name for messages.
    Param {
        owner: u32,
        index: u32,
        name: String,
    },
    /// An instance of an extern object type, specialised.
    Extern {
        decl: u32,
        name: String,
        args: Vec<TyId>,
    },
    /// A parser, control or package type or declaration, specialised.
    Block {
        decl: u32,
        name: String,
        args: Vec<TyId>,
    },
    /// The `apply()` result of table `table`.
    TableResult(u32),
    /// The `action_run` enum of table `table`.
    ActionRun(u32),
    /// `_` as a type argument, or a value that matches anything.
    DontCare,
    /// A keyset (the type of `a &&& b`, `a .. b`, `default`) over an element type.
    Set(TyId),
    /// A table, an action or a parser state used as a value.
    Table(u32),
    Action(u32),
}

/// Interns types and keeps the struct and enum definitions they refer to.
#[derive(Clone, Debug)]
pub struct TypeTable {
    types: Vec<Ty>,
    ids: HashMap<Ty, TyId>,
    pub structs: Vec<StructInfo>,
    pub enums: Vec<EnumInfo>,
}

impl Default for TypeTable {
    fn default() -> Self {
        TypeTable::new()
    }
}

impl TypeTable {
    pub const UNKNOWN: TyId = TyId(0);
    pub const VOID: TyId = TyId(1);
    pub const BOOL: TyId = TyId(2);
    pub const STRING: TyId = TyId(3);
    pub const ERROR: TyId = TyId(4);
    pub const MATCH_KIND: TyId = TyId(5);
    pub const INF_INT: TyId = TyId(6);
    pub const DONT_CARE: TyId = TyId(7);

    pub fn new() -> TypeTable {
        let mut t = TypeTable {
            types: Vec::new(),
            ids: HashMap::new(),
            structs: Vec::new(),
            enums: Vec::new(),
        };
        for ty in [
            Ty::Unknown,
            Ty::Void,
            Ty::Bool,
            Ty::String,
            Ty::Error,
            Ty::MatchKind,
            Ty::InfInt,
            Ty::DontCare,
        ] {
            t.intern(ty);
        }
        t
    }

    pub fn intern(&mut self, ty: Ty) -> TyId {
        if let Some(&id) = self.ids.get(&ty) {
            return id;
        }
        let id = TyId(self.types.len() as u32);
        self.types.push(ty.clone());
        self.ids.insert(ty, id);
        id
    }

    pub fn get(&self, id: TyId) -> &Ty {
        &self.types[id.0 as usize]
    }

    /// Number of interned types; ids run from 0 to `len() - 1`.
    pub fn len(&self) -> usize {
        self.types.len()
    }

    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    pub fn bits(&mut self, width: u32, signed: bool) -> TyId {
        self.intern(Ty::Bits { width, signed })
    }

    pub fn add_struct(&mut self, info: StructInfo) -> TyId {
        let idx = self.structs.len() as u32;
        self.structs.push(info);
        self.intern(Ty::Struct(idx))
    }

    pub fn add_enum(&mut self, info: EnumInfo) -> TyId {
        let idx = self.enums.len() as u32;
        self.enums.push(info);
        self.intern(Ty::Enum(idx))
    }

    /// The struct-like definition behind `id`, if it is one.
    pub fn struct_info(&self, id: TyId) -> Option<&StructInfo> {
        match self.get(id) {
            Ty::Struct(i) => self.structs.get(*i as usize),
            _ => None,
        }
    }

    pub fn enum_info(&self, id: TyId) -> Option<&EnumInfo> {
        match self.get(id) {
            Ty::Enum(i) => self.enums.get(*i as usize),
            _ => None,
        }
    }

    pub fn is_header(&self, id: TyId) -> bool {
        self.struct_info(id)
            .is_some_and(|s| s.kind == StructKind::Header)
    }

    pub fn is_union(&self, id: TyId) -> bool {
        self.struct_info(id)
            .is_some_and(|s| s.kind == StructKind::HeaderUnion)
    }

    /// `(width, signed)` of a fixed-width integer type.
    pub fn int_width(&self, id: TyId) -> Option<(u32, bool)> {
        match self.get(id) {
            Ty::Bits { width, signed } => Some((*width, *signed)),
            _ => None,
        }
    }

    /// The underlying type of a serializable enum or a new type.
    pub fn underlying(&self, id: TyId) -> Option<TyId> {
        match self.get(id) {
            Ty::Enum(i) => self.enums[*i as usize].repr,
            Ty::NewType { of, .. } => Some(*of),
            _ => None,
        }
    }

    /// Width in bits of a type that has a fixed size on the wire (for
    /// `minSizeInBits` and header layout); varbit counts as 0.
    pub fn size_in_bits(&self, id: TyId) -> Option<u64> {
        Some(match self.get(id) {
            Ty::Bits { width, .. } => *width as u64,
            Ty::Bool => 1,
            Ty::Varbit { .. } => 0,
            Ty::Enum(_) | Ty::NewType { .. } => return self.size_in_bits(self.underlying(id)?),
            Ty::Struct(i) => {
                let info = &self.structs[*i as usize];
                let sizes = info.fields.iter().map(|f| self.size_in_bits(f.ty));
                if info.kind == StructKind::HeaderUnion {
                    sizes.map(|s| s.unwrap_or(0)).max().unwrap_or(0)
                } else {
                    sizes.sum::<Option<u64>>()?
                }
            }
            Ty::Stack { elem, size } => self.size_in_bits(*elem)? * *size as u64,
            Ty::Tuple(items) => items
                .iter()
                .map(|t| self.size_in_bits(*t))
                .sum::<Option<u64>>()?,
            _ => return None,
        })
    }

    /// Maximum width in bits (varbit counts its maximum).
    pub fn max_size_in_bits(&self, id: TyId) -> Option<u64> {
        Some(match self.get(id) {
            Ty::Varbit { max } => *max as u64,
            Ty::Struct(i) => {
                let info = &self.structs[*i as usize];
                let sizes = info.fields.iter().map(|f| self.max_size_in_bits(f.ty));
                if info.kind == StructKind::HeaderUnion {
                    sizes.map(|s| s.unwrap_or(0)).max().unwrap_or(0)
                } else {
                    sizes.sum::<Option<u64>>()?
                }
            }
            Ty::Stack { elem, size } => self.max_size_in_bits(*elem)? * *size as u64,
            _ => return self.size_in_bits(id),
        })
    }

    /// The type as P4 source would write it, for messages.
    pub fn display(&self, id: TyId) -> String {
        match self.get(id) {
            Ty::Unknown => "<unknown>".into(),
            Ty::Void => "void".into(),
            Ty::Bool => "bool".into(),
            Ty::String => "string".into(),
            Ty::Error => "error".into(),
            Ty::MatchKind => "match_kind".into(),
            Ty::InfInt => "int".into(),
            Ty::Bits {
                width,
                signed: false,
            } => format!("bit<{width}>"),
            Ty::Bits {
                width,
                signed: true,
            } => format!("int<{width}>"),
            Ty::Varbit { max } => format!("varbit<{max}>"),
            Ty::Struct(i) => self.structs[*i as usize].name.clone(),
            Ty::Enum(i) => self.enums[*i as usize].name.clone(),
            Ty::NewType { name, .. } => name.clone(),
            Ty::Stack { elem, size } => format!("{}[{size}]", self.display(*elem)),
            Ty::Tuple(items) => format!(
                "tuple<{}>",
                items
                    .iter()
                    .map(|t| self.display(*t))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Ty::List(e) => format!("list<{}>", self.display(*e)),
            Ty::Param { name, .. } => name.clone(),
            Ty::Extern { name, args, .. } | Ty::Block { name, args, .. } => {
                if args.is_empty() {
                    name.clone()
                } else {
                    let args: Vec<_> = args.iter().map(|t| self.display(*t)).collect();
                    format!("{name}<{}>", args.join(", "))
                }
            }
            Ty::TableResult(_) => "table apply result".into(),
            Ty::ActionRun(_) => "action_run".into(),
            Ty::DontCare => "_".into(),
            Ty::Set(e) => format!("set<{}>", self.display(*e)),
            Ty::Table(_) => "table".into(),
            Ty::Action(_) => "action".into(),
        }
    }
}
