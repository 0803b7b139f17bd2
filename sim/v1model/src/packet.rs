//! One packet through the switch, as simple_switch moves it: parser,
//! verify, ingress; then the end-of-ingress decisions (I2E clone, resubmit,
//! multicast, drop, unicast); per copy egress, the end-of-egress decisions
//! (E2E clone, drop, deparse, recirculate).
//!
//! As simple_switch keeps a recirculate request in the packet's own
//! registers, one made in ingress goes with the unicast packet into egress
//! (where a later call replaces it); multicast copies, clones and
//! resubmitted packets start without one.
//!
//! Resubmitted and recirculated packets go round again, at most
//! [`MAX_PASSES`] passes per packet in all, so a program that always
//! recirculates cannot loop for ever.

use crate::externs::{CloneRequest, Requests};
use crate::{DROP_PORT, EgressStart, Field, V1Switch};
use janus_engine::env::Env;
use janus_engine::parser::{CompiledParser, Outcome, run_parser};
use janus_engine::target::{MirrorTarget, Target};
use std::collections::HashMap;

/// Passes through ingress allowed for one arriving packet (the first, then
/// resubmits and recirculations).
pub const MAX_PASSES: usize = 16;

/// `standard_metadata.instance_type` values (simple_switch's).
const NORMAL: u64 = 0;
const INGRESS_CLONE: u64 = 1;
const EGRESS_CLONE: u64 = 2;
const RECIRCULATED: u64 = 4;
const REPLICATED: u64 = 5;
const RESUBMITTED: u64 = 6;

/// A packet entering ingress again, with the metadata it keeps.
struct Pass {
    bytes: Vec<u8>,
    instance_type: u64,
    /// The arena it came from and the field list to copy from it.
    kept: Option<(Vec<u8>, u32)>,
}

/// A copy waiting for egress: its state, port, replication id and type.
pub(crate) struct EgressCopy {
    arena: Vec<u8>,
    port: u32,
    rid: u16,
    instance_type: u64,
}

/// The environment a stage runs in, over the switch's arena, tables,
/// profiles and externs: a macro rather than a method, so that the
/// switch's other fields (the ops, the output) stay borrowable beside it.
macro_rules! stage_env {
    ($sw:expr) => {
        Env::pipeline(
            &mut $sw.arena,
            &$sw.entities.tables,
            &mut $sw.entities.results,
            &$sw.entities.profiles,
            &mut $sw.externs,
            $sw.trace,
        )
    };
}

impl V1Switch {
    /// Runs one packet arriving on `port`, handing each packet sent to
    /// `out` as (port, bytes) in the order simple_switch sends them; the
    /// bytes live in a buffer the switch reuses, so a unicast packet
    /// allocates nothing ([`janus_engine::target::Target::process_with`]).
    pub(crate) fn run_packet(&mut self, port: u32, packet: &[u8], out: &mut dyn FnMut(u32, &[u8])) {
        if self.trace {
            trace_packet_in(port, packet.len());
        }
        self.start_pass(port, packet.len() as u64, NORMAL, None);
        if let Some(pass) = self.ingress_pass(port, packet, out) {
            self.pass_again(port, pass, out);
        }
    }

    /// Runs resubmitted and recirculated packets, starting with `first`,
    /// until none is left or the packet has had [`MAX_PASSES`] passes.
    #[cold]
    #[inline(never)]
    fn pass_again(&mut self, port: u32, first: Box<Pass>, out: &mut dyn FnMut(u32, &[u8])) {
        let mut next = Some(first);
        let mut passes = 1;
        while let Some(pass) = next.take() {
            if passes == MAX_PASSES {
                if self.trace {
                    tracing::info!(target: "janus::trace", passes, "pass limit: dropped");
                }
                break;
            }
            passes += 1;
            let kept = pass.kept.as_ref().map(|(a, l)| (a.as_slice(), *l));
            self.start_pass(port, pass.bytes.len() as u64, pass.instance_type, kept);
            next = self.ingress_pass(port, &pass.bytes, out);
        }
    }

    /// One pass, started by [`V1Switch::start_pass`]: parse `packet`, run
    /// ingress and the copies' egress. Returns the packet to run again
    /// (resubmit or recirculate), if any.
    fn ingress_pass(
        &mut self,
        port: u32,
        packet: &[u8],
        out: &mut dyn FnMut(u32, &[u8]),
    ) -> Option<Box<Pass>> {
        let cursor = self.parse_verify_ingress(packet);
        let payload = &packet[(cursor / 8).min(packet.len())..];
        let requests = self.externs.requests;
        let mcast = self.std.mcast_grp.read(&self.arena);
        if requests.clone.is_some() || requests.resubmit.is_some() || mcast != 0 || self.trace {
            return self.replicate(port, packet, payload, mcast, out);
        }
        // One copy at most, with the state (and any `truncate`) ingress
        // left: what `replicate` does for a unicast or dropped packet.
        let egress_spec = self.std.egress_spec.read(&self.arena);
        if egress_spec == DROP_PORT {
            return None;
        }
        let again = self.egress(
            egress_spec as u32,
            0,
            NORMAL,
            requests.recirculate,
            payload,
            out,
        );
        if self.pending.is_empty() {
            again
        } else {
            self.run_pending(payload, out).or(again)
        }
    }

    /// Clears the packet state and writes what a pass starts with: the
    /// fields `kept` from an earlier pass, the length, the clock read and
    /// `standard_metadata`'s arrival fields.
    #[inline(always)]
    fn start_pass(
        &mut self,
        port: u32,
        length: u64,
        instance_type: u64,
        kept: Option<(&[u8], u32)>,
    ) {
        // Only what compiled code may write was written: clearing that
        // resets the state (checked in debug builds, so by every test).
        debug_assert_eq!(
            self.reset.stray(&self.arena),
            None,
            "a byte of the packet state outside the write set was written"
        );
        self.reset.clear(&mut self.arena);
        self.externs.truncate_to = None;
        self.externs.requests = Requests::default();
        if let Some((from, list)) = kept {
            copy_field_list(&self.field_lists, list, from, &mut self.arena);
        }
        self.pass_length = length;
        self.egress_length = length;
        self.externs.ingress_length = length;
        if self.needs_clock {
            self.now_us = self.now_us();
        }
        // Only a packet from the wire has its port: simple_switch clears
        // the metadata of resubmitted and recirculated packets, and writes
        // `ingress_port` when a packet is received.
        self.std.start_ingress(
            &mut self.arena,
            (instance_type == NORMAL).then_some(port),
            instance_type,
            length,
            self.now_us,
        );
    }

    /// The end of ingress in general: clones, resubmit, multicast copies,
    /// unicast or drop, each copy's egress, then the clones'. Returns the
    /// packet to run again, if any.
    #[cold]
    #[inline(never)]
    fn replicate(
        &mut self,
        port: u32,
        packet: &[u8],
        payload: &[u8],
        mcast: u64,
        out: &mut dyn FnMut(u32, &[u8]),
    ) -> Option<Box<Pass>> {
        let requests = self.externs.requests;
        // The state after ingress is kept when more than one copy (or a
        // clone, or a resubmit keeping fields) starts from it; a plain
        // unicast packet runs egress on the arena as it is. (An I2E clone
        // puts that state back: `mcast_grp` is read once.)
        let snapshot = requests.clone.is_some() || requests.resubmit.is_some() || mcast != 0;
        if snapshot {
            self.after_ingress.copy_from_slice(&self.arena);
        }
        // I2E clone: the packet as received, parsed again, with only the
        // listed metadata, to the session's port (or group).
        if let Some(c) = requests.clone.filter(|c| !c.egress) {
            self.ingress_clone(c, port, packet);
            self.arena.copy_from_slice(&self.after_ingress);
        }
        let mcast = mcast as u16;
        let egress_spec = self.std.egress_spec.read(&self.arena);
        let resubmit = requests.resubmit;
        // (rid, port) of each copy; a unicast copy needs no allocation.
        let group: Vec<(u16, u32)>;
        let unicast = [(0u16, egress_spec as u32)];
        let (copies, copy_type): (&[(u16, u32)], u64) = if resubmit.is_some() {
            (&[], NORMAL)
        } else if mcast != 0 {
            group = self.groups.get(&mcast).cloned().unwrap_or_default();
            (&group, REPLICATED)
        } else if egress_spec == DROP_PORT {
            (&[], NORMAL)
        } else {
            (&unicast, NORMAL)
        };
        if self.trace {
            tracing::info!(
                target: "janus::trace",
                egress_spec,
                mcast_grp = mcast,
                copies = copies.len(),
                clones = self.pending.len(),
                resubmit = resubmit.is_some(),
                "ingress done"
            );
        }
        // bmv2 keeps an ingress `truncate` on the packet object itself:
        // multicast copies are new packets and start whole.
        let truncate_after_ingress = match copy_type {
            REPLICATED => None,
            _ => self.externs.truncate_to,
        };
        // So is a recirculate request: only the unicast packet keeps it.
        let recirculate = match copy_type {
            REPLICATED => None,
            _ => requests.recirculate,
        };
        let mut again = None;
        // Clones are queued before the packet's own copies.
        for (i, &(rid, egress_port)) in copies.iter().enumerate() {
            if i > 0 {
                self.arena.copy_from_slice(&self.after_ingress);
            }
            self.externs.truncate_to = truncate_after_ingress;
            let pass = self.egress(egress_port, rid, copy_type, recirculate, payload, out);
            if let Some(pass) = pass {
                again = Some(pass);
            }
        }
        again = self.run_pending(payload, out).or(again);
        if let Some(list) = resubmit {
            return Some(Box::new(Pass {
                bytes: packet.to_vec(),
                instance_type: RESUBMITTED,
                kept: list.map(|l| (self.after_ingress.clone(), l)),
            }));
        }
        again
    }

    /// Runs egress for the queued clones (and the clones they make), last
    /// queued first. Returns the last packet to run again, if any.
    #[cold]
    #[inline(never)]
    fn run_pending(
        &mut self,
        payload: &[u8],
        out: &mut dyn FnMut(u32, &[u8]),
    ) -> Option<Box<Pass>> {
        let mut again = None;
        while let Some(copy) = self.pending.pop() {
            self.arena.copy_from_slice(&copy.arena);
            self.externs.truncate_to = None;
            let pass = self.egress(copy.port, copy.rid, copy.instance_type, None, payload, out);
            if let Some(pass) = pass {
                again = Some(pass);
            }
        }
        again
    }

    /// Runs egress for one copy whose state is in the arena; sends it, or
    /// returns it to recirculate. E2E clones are queued. `recirculate` is
    /// the request the copy carries from ingress (the unicast packet's).
    fn egress(
        &mut self,
        egress_port: u32,
        rid: u16,
        instance_type: u64,
        recirculate: Option<Option<u32>>,
        payload: &[u8],
        out: &mut dyn FnMut(u32, &[u8]),
    ) -> Option<Box<Pass>> {
        // The model has no queues: egress starts in the microsecond ingress
        // did (one clock read per pass).
        let start = EgressStart {
            port: egress_port,
            rid,
            instance_type,
            // An I2E clone is the packet as received.
            length: match instance_type {
                INGRESS_CLONE => self.pass_length,
                _ => self.egress_length,
            },
            now_us: self.now_us,
        };
        self.std.start_egress(&mut self.arena, start);
        self.externs.requests = Requests {
            recirculate,
            ..Requests::default()
        };
        self.run_egress();
        let requests = self.externs.requests;
        if let Some(c) = requests.clone.filter(|c| c.egress) {
            self.egress_clone(c);
        }
        if self.std.egress_spec.read(&self.arena) == DROP_PORT {
            if self.trace {
                trace_dropped(egress_port);
            }
            return None;
        }
        self.compute_and_deparse(payload);
        // A recirculated packet is the whole deparsed packet: truncation
        // only limits what is sent (as in bmv2).
        if let Some(list) = requests.recirculate {
            return Some(self.recirculate(list));
        }
        if let Some(n) = self.externs.truncate_to {
            self.output.truncate(n as usize);
        }
        if self.trace {
            trace_packet_out(egress_port, self.output.len());
        }
        out(egress_port, &self.output);
        None
    }

    /// The deparsed packet as it enters ingress again, keeping the fields
    /// of `list` (if any) of the copy in the arena.
    #[cold]
    #[inline(never)]
    fn recirculate(&self, list: Option<u32>) -> Box<Pass> {
        if self.trace {
            tracing::info!(target: "janus::trace", len = self.output.len(), "recirculated");
        }
        Box::new(Pass {
            bytes: self.output.clone(),
            instance_type: RECIRCULATED,
            kept: list.map(|l| (self.arena.clone(), l)),
        })
    }

    /// Queues the copies an I2E clone makes: the received packet parsed
    /// afresh, keeping the listed metadata of the packet in `after_ingress`
    /// (the caller restores the arena from it).
    fn ingress_clone(&mut self, c: CloneRequest, port: u32, packet: &[u8]) {
        let Some(targets) = self.mirror_targets(c.session) else {
            return;
        };
        self.arena.fill(0);
        self.std.ingress_port.write(&mut self.arena, port as u64);
        self.std
            .packet_length
            .write(&mut self.arena, packet.len() as u64);
        // The same packet through the same parser: the copy's payload is
        // the original's. Then, as simple_switch does after that parse, all
        // metadata is cleared (what the parser wrote too, `ingress_port`
        // included) and the field list's values at the end of ingress are
        // copied in.
        self.parse(packet);
        self.arena[self.metadata.clone()].fill(0);
        if let Some(list) = c.field_list {
            copy_field_list(
                &self.field_lists,
                list,
                &self.after_ingress,
                &mut self.arena,
            );
        }
        for (rid, p) in targets {
            self.pending.push(EgressCopy {
                arena: self.arena.clone(),
                port: p,
                rid,
                instance_type: INGRESS_CLONE,
            });
        }
    }

    /// An E2E clone of the copy in the arena: its headers as egress left
    /// them, metadata cleared except the listed fields.
    #[cold]
    #[inline(never)]
    fn egress_clone(&mut self, c: CloneRequest) {
        let Some(targets) = self.mirror_targets(c.session) else {
            return;
        };
        let mut copy = self.arena.clone();
        copy[self.metadata.clone()].fill(0);
        if let Some(list) = c.field_list {
            copy_field_list(&self.field_lists, list, &self.arena, &mut copy);
        }
        self.std
            .packet_length
            .write(&mut copy, self.std.packet_length.read(&self.arena));
        for (rid, port) in targets {
            self.pending.push(EgressCopy {
                arena: copy.clone(),
                port,
                rid,
                instance_type: EGRESS_CLONE,
            });
        }
    }

    /// Where a clone session sends copies: (rid, port) pairs; `None` if the
    /// session is not configured.
    fn mirror_targets(&self, session: u32) -> Option<Vec<(u16, u32)>> {
        match self.mirror.get(&session)? {
            MirrorTarget::Port(p) => Some(vec![(0, *p)]),
            MirrorTarget::Group(g) => Some(self.groups.get(g).cloned().unwrap_or_default()),
        }
    }

    /// Runs the parser over `packet` (an I2E clone's parse); returns the
    /// bits it consumed.
    fn parse(&mut self, packet: &[u8]) -> usize {
        let mut env = stage_env!(self);
        env.input = packet;
        parse_in(&self.parser, self.std.parser_error, &mut env)
    }

    /// Runs the parser over `packet`, then verify checksum and ingress, in
    /// one environment; the bytes the parser left are what the
    /// `*_with_payload` checksums add. Returns the bits the parser consumed.
    fn parse_verify_ingress(&mut self, packet: &[u8]) -> usize {
        let mut env = stage_env!(self);
        env.input = packet;
        let cursor = parse_in(&self.parser, self.std.parser_error, &mut env);
        // A block leaves the environment as it found it but for the state;
        // the cursor and output bits are reset all the same.
        env.input = &packet[(cursor / 8).min(packet.len())..];
        (env.cursor, env.out_bits) = (0, 0);
        // Direct counters charge the length as received, as bmv2.
        env.packet_bytes = self.pass_length;
        env.now_us = self.now_us;
        self.verify.run(&mut env);
        (env.cursor, env.out_bits) = (0, 0);
        env.input = &[];
        env.length_delta = 0;
        self.ingress.run(&mut env);
        // Headers ingress made valid or invalid change the length egress
        // sees, as bmv2's add_header/remove_header change the packet's.
        let delta = env.length_delta;
        if delta != 0 {
            self.egress_length = self.pass_length.saturating_add_signed(delta);
        }
        cursor
    }

    /// Runs egress on the copy in the arena.
    fn run_egress(&mut self) {
        let mut env = stage_env!(self);
        env.packet_bytes = self.pass_length;
        env.now_us = self.now_us;
        self.egress.run(&mut env);
    }

    /// Runs compute checksum (whose `*_with_payload` checksums add
    /// `payload`), then the deparser into `self.output` (reused), in one
    /// environment; then appends `payload`.
    fn compute_and_deparse(&mut self, payload: &[u8]) {
        self.output.clear();
        let output = &mut self.output;
        let mut env = stage_env!(self);
        env.input = payload;
        env.packet_bytes = self.pass_length;
        env.now_us = self.now_us;
        self.compute.run(&mut env);
        // The deparser sees no packet: it emits into the output.
        (env.cursor, env.out_bits) = (0, 0);
        (env.input, env.packet_bytes, env.now_us) = (&[], 0, 0);
        env.output = Some(output);
        self.deparser.run(&mut env);
        self.output.extend_from_slice(payload);
    }
}

/// Copies the fields of `@field_list(list)` (as `(bit, width)` in
/// `lists`) from one packet state to another.
fn copy_field_list(lists: &HashMap<u32, Vec<(u32, u32)>>, list: u32, from: &[u8], to: &mut [u8]) {
    for &(bit, width) in lists.get(&list).into_iter().flatten() {
        janus_engine::env::copy_bits(from, bit as usize, to, bit as usize, width as usize);
    }
}

/// Runs `parser` in `env` (whose input is the packet, from bit 0); a
/// parser error does not drop: it is recorded in `parser_error`. Returns
/// the bits consumed.
#[inline(always)]
fn parse_in(parser: &CompiledParser, parser_error: Field, env: &mut Env<'_>) -> usize {
    let outcome = run_parser(parser, env);
    if let Outcome::Reject(Some(e)) = outcome {
        parser_error.write(env.arena, e as u64);
    }
    if env.trace {
        trace_parsed(&outcome, env.cursor);
    }
    env.cursor
}

/// Logs a packet arriving on `port`.
#[cold]
fn trace_packet_in(port: u32, len: usize) {
    tracing::info!(target: "janus::trace", port, len, "packet in");
}

/// Logs the parser's outcome and the bits it consumed.
#[cold]
fn trace_parsed(outcome: &Outcome, parsed_bits: usize) {
    tracing::info!(target: "janus::trace", ?outcome, parsed_bits, "parser done");
}

/// Logs a copy egress dropped.
#[cold]
fn trace_dropped(egress_port: u32) {
    tracing::info!(target: "janus::trace", egress_port, "dropped in egress");
}

/// Logs a packet sent.
#[cold]
fn trace_packet_out(egress_port: u32, len: usize) {
    tracing::info!(target: "janus::trace", egress_port, len, "packet out");
}

#[cfg(test)]
mod tests {
    use crate::V1Switch;
    use janus_engine::target::{MirrorTarget, Target};

    /// A unicast program whose packets exercise what the fast path handles
    /// itself: drops, an ingress `truncate`, E2E clones queued after the
    /// packet, recirculation (asked for in egress or in ingress) and the
    /// field list it keeps. The first byte
    /// picks the case; the second counts passes.
    const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> case; bit<8> passes; bit<16> rest; }
struct headers_t { h_t h; }
struct meta_t { @field_list(1) bit<8> kept; }
parser P(packet_in pkt, out headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(h.h); transition accept; }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        h.h.passes = h.h.passes + 1;
        h.h.rest = (bit<16>) m.kept;
        sm.egress_spec = 2;
        if (h.h.case == 1) { mark_to_drop(sm); }
        if (h.h.case == 2) { truncate(3); }
        if (h.h.case == 7 && h.h.passes < 3) {
            m.kept = h.h.passes;
            recirculate_preserving_field_list(1);
        }
    }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        if (h.h.case == 3 && sm.instance_type == 0) { clone(CloneType.E2E, 7); }
        if (h.h.case == 4 && h.h.passes < 3) {
            m.kept = h.h.passes;
            recirculate_preserving_field_list(1);
        }
        if (h.h.case == 5) { mark_to_drop(sm); }
        if (h.h.case == 6) { truncate(2); }
    }
}
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t h) { apply { pkt.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"#;

    fn switch(trace: bool) -> V1Switch {
        let c = janus_p4::driver::compile_source("fast.p4", PROGRAM.into(), &Default::default());
        assert!(!c.has_errors(), "{}", c.render(false));
        let mut sw = V1Switch::load(c.ir.expect("ir")).expect("loads");
        sw.mirroring_add(7, MirrorTarget::Port(9));
        sw.set_trace(trace);
        sw
    }

    /// With tracing on, every packet takes the general end of ingress;
    /// off, unicast packets take the fast path: both send the same.
    #[test]
    fn the_unicast_fast_path_sends_what_the_general_path_sends() {
        let (mut fast, mut general) = (switch(false), switch(true));
        for case in 0..=7u8 {
            let packet = [case, 0, 0xab, 0xcd, 0xee];
            let sent = fast.process(1, &packet);
            assert_eq!(sent, general.process(1, &packet), "case {case}");
            let expected: &[(u32, &[u8])] = match case {
                0 => &[(2, &[0, 1, 0, 0, 0xee])],
                1 | 5 => &[],
                2 => &[(2, &[2, 1, 0])],
                3 => &[(2, &[3, 1, 0, 0, 0xee]), (9, &[3, 1, 0, 0, 0xee])],
                4 => &[(2, &[4, 3, 0, 2, 0xee])],
                7 => &[(2, &[7, 3, 0, 2, 0xee])],
                _ => &[(2, &[6, 1])],
            };
            let expected: Vec<(u32, Vec<u8>)> =
                expected.iter().map(|(p, b)| (*p, b.to_vec())).collect();
            assert_eq!(sent, expected, "case {case}");
        }
    }
}
