//! The P4Info a controller pushes, checked and made the server's contract.
//!
//! A controller's P4Info (p4c's, or Janus's own `janus p4 compile
//! --p4info`) is the contract between it and the server: every later
//! Read, Write, PacketIn, digest and counter uses its ids. So the server
//! accepts any P4Info that describes the pushed program, whatever its ids,
//! and then speaks in those ids. [`check`] does it in three steps:
//!
//! 1. [`validate`]: the P4Info on its own. Every object has a preamble with
//!    a name and an id; ids are unique across the P4Info and carry their
//!    kind's resource prefix in the top byte (0x01 actions, 0x02 tables,
//!    0x03 value sets, 0x04 controller headers, 0x11 action profiles, 0x12
//!    counters, 0x13 direct counters, 0x14 meters, 0x15 direct meters, 0x16
//!    registers, 0x17 digests); names are unique per kind; every id an
//!    object refers to (action refs, const and initial default actions,
//!    implementations, direct resources, direct tables, action profiles'
//!    tables) names an object of the right kind; match field, parameter and
//!    controller metadata ids are non-zero and unique within their object.
//! 2. [`compare`]: the P4Info against the program's (the front end's) BY
//!    NAME: the same tables, actions, action profiles, counters, direct
//!    counters, meters, direct meters, registers, value sets, digests and
//!    controller headers, each of the same shape (see [`compare`]). Ids,
//!    annotations, aliases and documentation may differ. Fields,
//!    parameters and metadata with a `type_name` (translated types,
//!    `@p4runtime_translation`) may have another bitwidth than the
//!    program's (their SDN width, 0 for SDN strings): they are accepted for
//!    their name; the server maps their values to the program's width
//!    (`crate::translation`).
//! 3. The P4Info the server runs with: the program's, renumbered with the
//!    pushed P4Info's ids ([`Renumbering::apply`]). Everything the server
//!    reads from a P4Info besides ids (widths, sizes, units, the tenant
//!    annotations, digest types) is then the program's, which the shape
//!    check made equal to the pushed one where it matters; the rights the
//!    program gives tenants (`@janus_tenant_key`, `@janus_tenant_index`,
//!    `@janus_tenant_quota`) come from the program, not from the
//!    controller's annotations.
//!
//! Every refusal is one sentence naming the first object that differs, for
//! an INVALID_ARGUMENT status.

mod compare;
mod renumber;
mod validate;

pub use compare::compare;
pub use renumber::Renumbering;
pub use validate::validate;

use crate::proto::p4::config::v1 as cfg;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The kinds of P4Info objects that have a preamble, in P4Info order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Table,
    Action,
    ActionProfile,
    Counter,
    DirectCounter,
    Meter,
    DirectMeter,
    Register,
    ValueSet,
    Digest,
    ControllerHeader,
}

impl Kind {
    /// Every kind, in the order the P4Info lists them and [`compare`]
    /// checks them.
    pub const ALL: [Kind; 11] = [
        Kind::Table,
        Kind::Action,
        Kind::ActionProfile,
        Kind::Counter,
        Kind::DirectCounter,
        Kind::Meter,
        Kind::DirectMeter,
        Kind::Register,
        Kind::ValueSet,
        Kind::Digest,
        Kind::ControllerHeader,
    ];

    /// The resource prefix (the id's top byte), P4Runtime's `P4Ids`.
    pub fn prefix(self) -> u8 {
        match self {
            Kind::Action => 0x01,
            Kind::Table => 0x02,
            Kind::ValueSet => 0x03,
            Kind::ControllerHeader => 0x04,
            Kind::ActionProfile => 0x11,
            Kind::Counter => 0x12,
            Kind::DirectCounter => 0x13,
            Kind::Meter => 0x14,
            Kind::DirectMeter => 0x15,
            Kind::Register => 0x16,
            Kind::Digest => 0x17,
        }
    }

    /// The kind whose prefix is `prefix`, if any.
    pub fn of_prefix(prefix: u8) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.prefix() == prefix)
    }

    /// The kind's name in messages.
    pub fn noun(self) -> &'static str {
        match self {
            Kind::Table => "table",
            Kind::Action => "action",
            Kind::ActionProfile => "action profile",
            Kind::Counter => "counter",
            Kind::DirectCounter => "direct counter",
            Kind::Meter => "meter",
            Kind::DirectMeter => "direct meter",
            Kind::Register => "register",
            Kind::ValueSet => "value set",
            Kind::Digest => "digest",
            Kind::ControllerHeader => "controller header",
        }
    }
}

static NO_PREAMBLE: cfg::Preamble = cfg::Preamble {
    id: 0,
    name: String::new(),
    alias: String::new(),
    annotations: Vec::new(),
    annotation_locations: Vec::new(),
    doc: None,
    structured_annotations: Vec::new(),
};

fn pre(p: &Option<cfg::Preamble>) -> &cfg::Preamble {
    p.as_ref().unwrap_or(&NO_PREAMBLE)
}

/// The preambles of the objects of `kind` in `info`, in order (`None`
/// where an object has none).
fn preambles(info: &cfg::P4Info, kind: Kind) -> Vec<Option<&cfg::Preamble>> {
    fn of<T>(items: &[T], p: impl Fn(&T) -> &Option<cfg::Preamble>) -> Vec<Option<&cfg::Preamble>> {
        items.iter().map(|x| p(x).as_ref()).collect()
    }
    match kind {
        Kind::Table => of(&info.tables, |x| &x.preamble),
        Kind::Action => of(&info.actions, |x| &x.preamble),
        Kind::ActionProfile => of(&info.action_profiles, |x| &x.preamble),
        Kind::Counter => of(&info.counters, |x| &x.preamble),
        Kind::DirectCounter => of(&info.direct_counters, |x| &x.preamble),
        Kind::Meter => of(&info.meters, |x| &x.preamble),
        Kind::DirectMeter => of(&info.direct_meters, |x| &x.preamble),
        Kind::Register => of(&info.registers, |x| &x.preamble),
        Kind::ValueSet => of(&info.value_sets, |x| &x.preamble),
        Kind::Digest => of(&info.digests, |x| &x.preamble),
        Kind::ControllerHeader => of(&info.controller_packet_metadata, |x| &x.preamble),
    }
}

/// "1st", "2nd", ...
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// What an id names in a P4Info: its kind and name.
struct Index<'a> {
    by_id: HashMap<u32, (Kind, &'a str)>,
}

impl<'a> Index<'a> {
    fn build(info: &'a cfg::P4Info) -> Index<'a> {
        let mut by_id = HashMap::new();
        for kind in Kind::ALL {
            for p in preambles(info, kind).into_iter().flatten() {
                by_id.entry(p.id).or_insert((kind, p.name.as_str()));
            }
        }
        Index { by_id }
    }

    /// The name of the object `id` if it is of one of `kinds`; else why
    /// not, in words (`what` says who refers to it).
    fn expect(&self, id: u32, kinds: &[Kind], what: &str) -> Result<(Kind, &'a str), String> {
        let want = kinds
            .iter()
            .map(|k| article(k.noun()))
            .collect::<Vec<_>>()
            .join(" or ");
        match self.by_id.get(&id) {
            Some(&(k, name)) if kinds.contains(&k) => Ok((k, name)),
            Some(&(k, name)) => Err(format!(
                "{what} is id {id:#010x}, which is {} {name}, not {want}",
                article(k.noun())
            )),
            None => Err(format!(
                "{what} is id {id:#010x}, which names nothing in the P4Info (it should be {want})"
            )),
        }
    }
}

/// "a table", "an action".
fn article(noun: &str) -> String {
    if noun.starts_with('a') {
        format!("an {noun}")
    } else {
        format!("a {noun}")
    }
}

/// Checks a pushed P4Info ([`validate`], then [`compare`] with the
/// program's) and gives the P4Info the server runs the pipeline with: the
/// program's with the pushed ids ([`Renumbering::apply`]). `Err` is the
/// reason for an INVALID_ARGUMENT refusal.
pub fn check(pushed: &cfg::P4Info, program: &cfg::P4Info) -> Result<cfg::P4Info, String> {
    validate(pushed).map_err(|e| format!("it is not a valid P4Info: {e}"))?;
    let r = compare(pushed, program)?;
    Ok(r.apply(program))
}
