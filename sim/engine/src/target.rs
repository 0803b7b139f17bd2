//! [`Target`]: what the control plane, the card, the host and the CLI
//! need of a loaded pipeline, whatever its architecture. Each architecture
//! crate implements it for its switch; `janus-targets` picks the one a
//! program's `main` package names.

use crate::meter::Rate;
use crate::pipeline::{ProfileInfo, TableInfo, ValueSetInfo};
use crate::profile::ActionProfile;
use crate::table::TableState;
use crate::value::Bits;
use janus_p4::ir;
use thiserror::Error;

/// Where a clone (mirror) session sends its copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MirrorTarget {
    Port(u32),
    Group(u16),
}

/// A control-plane write to an extern or a replication object that the
/// pipeline could not take.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum EntityError {
    /// No extern instance of the kind has this name.
    #[error("no {kind} named `{name}`")]
    NoSuchInstance { kind: &'static str, name: String },
    /// The instance has fewer cells.
    #[error("{kind} `{name}` has no cell {index}")]
    NoSuchCell {
        kind: &'static str,
        name: String,
        index: usize,
    },
    /// A multicast group, node or clone session that does not exist.
    #[error("no {kind} {id}")]
    NoSuchObject { kind: &'static str, id: u64 },
}

/// A loaded pipeline as everything outside its architecture sees it.
pub trait Target: Send {
    /// The checked program it runs.
    fn program(&self) -> &ir::Program;

    /// Turns per-packet tracing on or off (target `janus::trace`, level
    /// info: parser states, tables with keys and hits, actions with
    /// arguments, each packet's fate). Off, it costs a branch per event.
    fn set_trace(&mut self, on: bool);

    /// Microseconds since the pipeline was loaded: the clock of its
    /// timestamps and of [`TableState::last_hit_us`].
    fn now_us(&self) -> u64;

    /// Runs one packet arriving on `port`, handing each packet sent to
    /// `out` as (port, bytes) in the order the architecture sends them,
    /// from a buffer the pipeline reuses.
    fn process_with(&mut self, port: u32, packet: &[u8], out: &mut dyn FnMut(u32, &[u8]));

    /// [`Target::process_with`], collecting the packets sent.
    fn process(&mut self, port: u32, packet: &[u8]) -> Vec<(u32, Vec<u8>)> {
        let mut sent = Vec::new();
        self.process_with(port, packet, &mut |p, bytes| sent.push((p, bytes.to_vec())));
        sent
    }

    /// The tables, by slot.
    fn tables(&self) -> &[TableInfo];
    /// The contents of the table in `slot` (entries, direct counters).
    fn table(&self, slot: usize) -> Option<&TableState>;
    /// The contents of the table in `slot`, for the control plane.
    fn table_mut(&mut self, slot: usize) -> Option<&mut TableState>;
    /// The action profiles and selectors.
    fn profiles(&self) -> &[ProfileInfo];
    /// The members and groups of the profile named `name`.
    fn profile_mut(&mut self, name: &str) -> Option<&mut ActionProfile>;
    /// The parser value sets.
    fn value_sets(&self) -> &[ValueSetInfo];
    /// The members of the value set named `name`, as a table.
    fn value_set_mut(&mut self, name: &str) -> Option<&mut TableState>;

    /// The names of the extern instances with state (counters, meters,
    /// registers, ...), as the control plane names them.
    fn extern_names(&self) -> Vec<&str>;
    /// Packets and bytes counted by indexed counter `name` at `index`.
    fn counter(&self, name: &str, index: usize) -> Option<(u64, u64)>;
    /// Sets the packet and byte counts of counter `name` at `index`.
    fn counter_write(
        &mut self,
        name: &str,
        index: usize,
        packets: u64,
        bytes: u64,
    ) -> Result<(), EntityError>;
    /// The value of register `name` at `index`.
    fn register(&self, name: &str, index: usize) -> Option<&Bits>;
    /// Sets register `name` at `index` (the low bits of `value`).
    fn register_write(&mut self, name: &str, index: usize, value: u64) -> Result<(), EntityError>;
    /// Sets every cell of register `name` to 0.
    fn register_reset(&mut self, name: &str) -> Result<(), EntityError>;
    /// Sets the committed and peak rates of meter `name`, cell `index`
    /// (every cell when `None`).
    fn set_meter_rates(
        &mut self,
        name: &str,
        index: Option<usize>,
        committed: Rate,
        peak: Rate,
    ) -> Result<(), EntityError>;
    /// Takes the digests sent since the last call, oldest first, as
    /// (receiver, data), and how many were dropped for want of room.
    fn take_digests(&mut self) -> (Vec<(u64, Vec<u8>)>, u64);

    /// Configures clone session `session` to send copies to `target`.
    fn mirroring_add(&mut self, session: u32, target: MirrorTarget);
    /// Removes clone session `session`.
    fn mirroring_delete(&mut self, session: u32) -> Result<(), EntityError>;
    /// Sets the (replication id, port) copies multicast group `group`
    /// makes, replacing its nodes (none: the group makes no copies).
    fn mc_group_set(&mut self, group: u16, copies: Vec<(u16, u32)>);
    /// Creates multicast group `group` (no members yet).
    fn mc_group_create(&mut self, group: u16);
    /// Creates a replication node (rid, ports); returns its handle.
    fn mc_node_create(&mut self, rid: u16, ports: Vec<u32>) -> u32;
    /// Adds node `handle` to `group`.
    fn mc_node_associate(&mut self, group: u16, handle: u32) -> Result<(), EntityError>;
    /// Replaces the ports of node `handle`.
    fn mc_node_update(&mut self, handle: u32, ports: Vec<u32>) -> Result<(), EntityError>;
}
