//! The parsed form of an STF file.
//!
//! Names are kept as written (the runner resolves them against the
//! program: exact, then unique suffix); numbers are kept as written
//! ([`Number`]) so that the runner can interpret key values for the key's
//! match kind and width ([`KeyValue::exact`], [`KeyValue::ternary`],
//! [`KeyValue::lpm`], [`KeyValue::range`]).

use crate::error::ValueError;
use crate::number::{Number, Radix};
use crate::pattern::Pattern;
use std::collections::BTreeSet;

/// A parsed STF file: its commands in file order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stf {
    /// The commands, in file order, each with its position.
    pub commands: Vec<Located<Command>>,
}

impl Stf {
    /// The observed ports: every port named by a `packet` or `expect` line.
    /// Output on any other port is neither captured nor checked.
    pub fn observed_ports(&self) -> BTreeSet<u32> {
        self.commands
            .iter()
            .filter_map(|c| match &c.item {
                Command::Packet { port, .. } | Command::Expect { port, .. } => Some(*port),
                _ => None,
            })
            .collect()
    }
}

/// Something with the position where it starts (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Located<T> {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters) of the command keyword.
    pub column: usize,
    /// The thing itself.
    pub item: T,
}

/// One STF command (one line).
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `packet <port> <hex...>`: inject a frame of exactly these bytes.
    Packet {
        /// Ingress port.
        port: u32,
        /// The frame.
        data: Vec<u8>,
    },
    /// `expect <port> [<pattern...> [$]]`: one more frame expected on the
    /// port. `pattern` is `None` for `expect <port>` alone, which the
    /// reference driver reads as "any number of frames of any content".
    Expect {
        /// Egress port.
        port: u32,
        /// What the frame must look like; `None`: the port is not checked.
        pattern: Option<Pattern>,
    },
    /// `no_packet`: in the reference grammar but unusable with the bmv2
    /// driver (which crashes on it); parsed so that the runner can decide.
    NoPacket,
    /// `add <table> [<priority>] <key>:<value>... <action>(<args>) [= <id>]`.
    Add {
        /// Table name as written.
        table: String,
        /// Priority as written; for ternary tables the larger number wins.
        priority: Option<u64>,
        /// Key values in the order written (at least one).
        keys: Vec<KeyMatch>,
        /// The action and its arguments.
        action: ActionCall,
        /// The `= id` entry name, if any (the reference driver ignores it).
        id: Option<String>,
    },
    /// `setdefault <table> <action>(<args>)`.
    SetDefault {
        /// Table name as written.
        table: String,
        /// The default action.
        action: ActionCall,
    },
    /// `remove all`.
    RemoveAll,
    /// `check_counter <name>(<index>) [packets|bytes <op> <value>]`.
    CheckCounter {
        /// Counter name as written.
        name: String,
        /// Index, or the name of an entry given with `= id`.
        index: CounterIndex,
        /// The comparison; `None` when only `name(index)` was written.
        check: Option<CounterCheck>,
    },
    /// `wait`.
    Wait,
    /// `mirroring_add <session> <port>`: clone session to a port.
    MirroringAdd {
        /// Clone session id.
        session: u32,
        /// Egress port of the clones.
        port: u32,
    },
    /// `mirroring_add_mc <session> <group>`: clone session to a multicast group.
    MirroringAddMc {
        /// Clone session id.
        session: u32,
        /// Multicast group of the clones.
        group: u32,
    },
    /// `mirroring_delete <session>`.
    MirroringDelete {
        /// Clone session id.
        session: u32,
    },
    /// `mirroring_get <session>` (a query; no effect on the data plane).
    MirroringGet {
        /// Clone session id.
        session: u32,
    },
    /// `mc_mgrp_create <group>`.
    McMgrpCreate {
        /// Multicast group id.
        group: u32,
    },
    /// `mc_node_create <rid> <port>...`: creates the next node handle
    /// (0, 1, 2, ..., lowest free first).
    McNodeCreate {
        /// Replication id given to the copies.
        rid: u32,
        /// Ports (at least one).
        ports: Vec<u32>,
    },
    /// `mc_node_update <node> <port>...`.
    McNodeUpdate {
        /// Node handle.
        node: u32,
        /// New ports (at least one).
        ports: Vec<u32>,
    },
    /// `mc_node_associate <group> <node>`.
    McNodeAssociate {
        /// Multicast group id.
        group: u32,
        /// Node handle.
        node: u32,
    },
    /// `counter_read <name> <index>`.
    CounterRead {
        /// Full control-plane name.
        name: String,
        /// Cell index.
        index: u64,
    },
    /// `counter_write <name> <index> <packets> <bytes>`.
    CounterWrite {
        /// Full control-plane name.
        name: String,
        /// Cell index.
        index: u64,
        /// Packet count to store.
        packets: u64,
        /// Byte count to store.
        bytes: u64,
    },
    /// `register_read <name> <index>`.
    RegisterRead {
        /// Full control-plane name.
        name: String,
        /// Cell index.
        index: u64,
    },
    /// `register_write <name> <index> <value>`.
    RegisterWrite {
        /// Full control-plane name.
        name: String,
        /// Cell index.
        index: u64,
        /// Value (any width; no `*` digits).
        value: Number,
    },
    /// `register_reset <name>`: every cell to 0.
    RegisterReset {
        /// Full control-plane name.
        name: String,
    },
    /// `meter_get_rates <name> <index>` (a query).
    MeterGetRates {
        /// Full control-plane name.
        name: String,
        /// Cell index.
        index: u64,
    },
    /// `meter_set_rates <name> <index> <rate>:<burst>...`.
    MeterSetRates {
        /// Full control-plane name.
        name: String,
        /// Cell index.
        index: u64,
        /// Rates in order (committed, then peak), at least one.
        rates: Vec<MeterRate>,
    },
    /// `meter_array_set_rates <name> <rate>:<burst>...`.
    MeterArraySetRates {
        /// Full control-plane name.
        name: String,
        /// Rates in order (committed, then peak), at least one.
        rates: Vec<MeterRate>,
    },
}

impl Command {
    /// The command's keyword, lowercase, as written in STF.
    pub fn keyword(&self) -> &'static str {
        match self {
            Command::Packet { .. } => "packet",
            Command::Expect { .. } => "expect",
            Command::NoPacket => "no_packet",
            Command::Add { .. } => "add",
            Command::SetDefault { .. } => "setdefault",
            Command::RemoveAll => "remove",
            Command::CheckCounter { .. } => "check_counter",
            Command::Wait => "wait",
            Command::MirroringAdd { .. } => "mirroring_add",
            Command::MirroringAddMc { .. } => "mirroring_add_mc",
            Command::MirroringDelete { .. } => "mirroring_delete",
            Command::MirroringGet { .. } => "mirroring_get",
            Command::McMgrpCreate { .. } => "mc_mgrp_create",
            Command::McNodeCreate { .. } => "mc_node_create",
            Command::McNodeUpdate { .. } => "mc_node_update",
            Command::McNodeAssociate { .. } => "mc_node_associate",
            Command::CounterRead { .. } => "counter_read",
            Command::CounterWrite { .. } => "counter_write",
            Command::RegisterRead { .. } => "register_read",
            Command::RegisterWrite { .. } => "register_write",
            Command::RegisterReset { .. } => "register_reset",
            Command::MeterGetRates { .. } => "meter_get_rates",
            Command::MeterSetRates { .. } => "meter_set_rates",
            Command::MeterArraySetRates { .. } => "meter_array_set_rates",
        }
    }
}

/// One `field:value` of an `add` line. Equality ignores `column`.
#[derive(Clone, Debug, Eq)]
pub struct KeyMatch {
    /// The field as written: a dotted path, possibly with `[N]` indexes
    /// and `$N` stack suffixes (`hdr.stk$1.f` means `hdr.stk[1].f`), kept
    /// verbatim for the runner to resolve.
    pub field: String,
    /// The value.
    pub value: KeyValue,
    /// 1-based column of the field name.
    pub column: usize,
}

/// A key value as written. Its meaning depends on the key's match kind,
/// which the parser does not know: the runner calls [`KeyValue::exact`],
/// [`KeyValue::ternary`], [`KeyValue::lpm`] or [`KeyValue::range`] with the
/// key's width.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum KeyValue {
    /// A number (hex and binary may have `*` digits).
    Value(Number),
    /// `value/len` (the value has no `*` digits).
    Prefix {
        /// The value.
        value: Number,
        /// The prefix length, in bits.
        len: u32,
    },
    /// `lo->hi`, for a range key: the values from `lo` to `hi` (no `*`
    /// digits), as simple_switch_CLI writes a range.
    Range {
        /// The first value of the range.
        lo: Number,
        /// The last value of the range.
        hi: Number,
    },
}

/// A ternary value and mask, each `(width + 7) / 8` big-endian bytes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ternary {
    /// The value, with `*` digits as 0.
    pub value: Vec<u8>,
    /// The mask: ones exactly under the non-`*` digits written.
    pub mask: Vec<u8>,
}

/// An lpm value (`(width + 7) / 8` big-endian bytes) and prefix length.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lpm {
    /// The value as written (bits beyond the prefix are not cleared).
    pub value: Vec<u8>,
    /// Prefix length in bits.
    pub prefix_len: u32,
}

impl KeyValue {
    /// The number part.
    pub fn number(&self) -> &Number {
        match self {
            KeyValue::Value(n)
            | KeyValue::Prefix { value: n, .. }
            | KeyValue::Range { lo: n, .. } => n,
        }
    }

    /// The first and last value (`(width + 7) / 8` big-endian bytes each)
    /// of a range key of `width` bits: `lo->hi`, or one value `v` for the
    /// range `v->v`.
    pub fn range(&self, width: u32) -> Result<(Vec<u8>, Vec<u8>), ValueError> {
        match self {
            KeyValue::Range { lo, hi } => Ok((lo.to_be_bytes(width)?, hi.to_be_bytes(width)?)),
            KeyValue::Value(n) => {
                let v = n.to_be_bytes(width)?;
                Ok((v.clone(), v))
            }
            KeyValue::Prefix { value, len } => Err(ValueError::UnexpectedPrefix {
                value: value.to_string(),
                len: *len,
            }),
        }
    }

    /// The value for an exact (or `valid`) key of `width` bits: decimal,
    /// hex or binary, no `*` digits, no `/len`.
    pub fn exact(&self, width: u32) -> Result<Vec<u8>, ValueError> {
        match self {
            KeyValue::Value(n) => n.to_be_bytes(width),
            KeyValue::Prefix { value, len } => Err(ValueError::UnexpectedPrefix {
                value: value.to_string(),
                len: *len,
            }),
            KeyValue::Range { lo, hi } => Err(ValueError::UnexpectedRange {
                range: format!("{lo}->{hi}"),
            }),
        }
    }

    /// Value and mask for a ternary (or optional) key of `width` bits.
    ///
    /// As the reference driver does it: the mask has ones under each
    /// digit written (4 bits per hex digit, 1 per binary digit) and zeros
    /// under each `*`; bits above the digits written are don't-care, so
    /// `0x1` on a 16-bit field compares the low nibble only. Decimal is an
    /// error. Mask bits above `width` (from leading digits) are dropped;
    /// value bits there are an error.
    pub fn ternary(&self, width: u32) -> Result<Ternary, ValueError> {
        let n = match self {
            KeyValue::Value(n) => n,
            KeyValue::Prefix { value, len } => {
                return Err(ValueError::UnexpectedPrefix {
                    value: value.to_string(),
                    len: *len,
                });
            }
            KeyValue::Range { lo, hi } => {
                return Err(ValueError::UnexpectedRange {
                    range: format!("{lo}->{hi}"),
                });
            }
        };
        if n.radix() == Radix::Decimal {
            return Err(ValueError::DecimalTernary {
                value: n.to_string(),
            });
        }
        let value = n.fit(&n.le_bytes(false), width)?;
        let mask = crate::number::to_be(&n.le_bytes(true), width);
        Ok(Ternary { value, mask })
    }

    /// Value and prefix length for an lpm key of `width` bits.
    ///
    /// `value/len` takes the value as written (decimal allowed). Without
    /// `/len` the value must be hex or binary, any `*` digits must come
    /// last, and the prefix length is 4 (hex) or 1 (binary) times the
    /// number of non-`*` digits. As in the reference driver, the value is
    /// right-aligned in the field, so the digits should span the whole
    /// field: `0x0a******` on 32 bits is `10.0.0.0/8`, whereas `0x0a**` on
    /// 32 bits is `0x00000a00/8`.
    pub fn lpm(&self, width: u32) -> Result<Lpm, ValueError> {
        let (n, prefix_len) = match self {
            KeyValue::Prefix { value, len } => {
                if value.has_dont_care() {
                    return Err(ValueError::DontCare {
                        value: value.to_string(),
                    });
                }
                (value, *len)
            }
            KeyValue::Range { lo, hi } => {
                return Err(ValueError::UnexpectedRange {
                    range: format!("{lo}->{hi}"),
                });
            }
            KeyValue::Value(n) => {
                let Some(bpd) = n.radix().bits_per_digit() else {
                    return Err(ValueError::DecimalLpmNeedsLength {
                        value: n.to_string(),
                    });
                };
                let known = n.digits().iter().take_while(|d| d.is_some()).count();
                if n.digits()[known..].iter().any(Option::is_some) {
                    return Err(ValueError::LpmDontCareNotTrailing {
                        value: n.to_string(),
                    });
                }
                // `known` is at most MAX_DIGITS, so this cannot overflow.
                (n, known as u32 * bpd)
            }
        };
        if prefix_len > width {
            return Err(ValueError::PrefixTooLong {
                len: prefix_len,
                width,
            });
        }
        let value = n.fit(&n.le_bytes(false), width)?;
        Ok(Lpm { value, prefix_len })
    }
}

/// `action(param:value, ...)`. Equality ignores `column`.
#[derive(Clone, Debug, Eq)]
pub struct ActionCall {
    /// Action name as written.
    pub name: String,
    /// Arguments in the order written (any order is allowed).
    pub args: Vec<ActionArg>,
    /// 1-based column of the action name.
    pub column: usize,
}

/// One `param:value` of an action call. Equality ignores `column`.
#[derive(Clone, Debug, Eq)]
pub struct ActionArg {
    /// Parameter name.
    pub name: String,
    /// Value (no `*` digits); converted with [`Number::to_be_bytes`].
    pub value: Number,
    /// 1-based column of the parameter name.
    pub column: usize,
}

// Positions are metadata: two commands that say the same thing are equal
// wherever they are written (so printed-and-reparsed commands compare equal).
impl PartialEq for KeyMatch {
    fn eq(&self, other: &Self) -> bool {
        self.field == other.field && self.value == other.value
    }
}

impl PartialEq for ActionCall {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.args == other.args
    }
}

impl PartialEq for ActionArg {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.value == other.value
    }
}

/// The index in `check_counter name(index)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CounterIndex {
    /// A cell index.
    Index(u64),
    /// An identifier as written, conventionally `$id` naming the entry
    /// added with `= id` (for a direct counter).
    Name(String),
}

/// `packets` or `bytes` in `check_counter`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CounterKind {
    /// The packet count.
    Packets,
    /// The byte count.
    Bytes,
}

/// The comparison of `check_counter`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// The operator as written.
    pub fn as_str(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }

    /// Whether `actual <op> expected` holds.
    pub fn holds(self, actual: u64, expected: u64) -> bool {
        match self {
            CmpOp::Eq => actual == expected,
            CmpOp::Ne => actual != expected,
            CmpOp::Lt => actual < expected,
            CmpOp::Le => actual <= expected,
            CmpOp::Gt => actual > expected,
            CmpOp::Ge => actual >= expected,
        }
    }
}

/// `packets|bytes <op> <value>` of `check_counter`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CounterCheck {
    /// Which count.
    pub kind: CounterKind,
    /// The comparison.
    pub op: CmpOp,
    /// The number compared against.
    pub value: u64,
}

/// One `rate:burst` pair of the meter commands: rate in units (packets or
/// bytes) per microsecond, which may be fractional; burst in units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeterRate {
    /// Units per microsecond (finite, not negative).
    pub rate: f64,
    /// Burst size in units.
    pub burst: u64,
}
