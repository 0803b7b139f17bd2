//! One packet through the switch, as simple_switch moves it: parser,
//! verify, ingress; then the end-of-ingress decisions (I2E clone, resubmit,
//! multicast, drop, unicast); per copy egress, the end-of-egress decisions
//! (E2E clone, drop, deparse, recirculate).
//!
//! Resubmitted and recirculated packets go round again, at most
//! [`MAX_PASSES`] passes per packet in all, so a program that always
//! recirculates cannot loop for ever.

use crate::externs::{CloneRequest, Requests};
use crate::{DROP_PORT, EgressStart, MirrorTarget, V1Switch};
use janus_engine::env::Env;
use janus_engine::exec::run;
use janus_engine::parser::{Outcome, run_parser};
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
struct EgressCopy {
    arena: Vec<u8>,
    port: u32,
    rid: u16,
    instance_type: u64,
}

impl V1Switch {
    /// Runs one packet arriving on `port`; returns the packets sent, as
    /// (port, bytes), in the order simple_switch sends them.
    pub fn process(&mut self, port: u32, packet: &[u8]) -> Vec<(u32, Vec<u8>)> {
        let mut sent = Vec::new();
        self.process_with(port, packet, &mut |p, bytes| sent.push((p, bytes.to_vec())));
        sent
    }

    /// Runs one packet arriving on `port`, handing each packet sent to
    /// `out` as (port, bytes) in the order simple_switch sends them; the
    /// bytes live in a buffer the switch reuses, so a unicast packet
    /// allocates nothing.
    pub fn process_with(&mut self, port: u32, packet: &[u8], out: &mut dyn FnMut(u32, &[u8])) {
        if self.trace {
            tracing::info!(target: "janus::trace", port, len = packet.len(), "packet in");
        }
        let mut next = self.ingress_pass(port, packet, NORMAL, None, out);
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
            next = self.ingress_pass(port, &pass.bytes, pass.instance_type, kept, out);
        }
    }

    /// One pass: parse `packet`, run ingress and the copies' egress. Returns
    /// the packet to run again (resubmit or recirculate), if any.
    fn ingress_pass(
        &mut self,
        port: u32,
        packet: &[u8],
        instance_type: u64,
        kept: Option<(&[u8], u32)>,
        out: &mut dyn FnMut(u32, &[u8]),
    ) -> Option<Pass> {
        self.arena.fill(0);
        self.externs.truncate_to = None;
        self.externs.requests = Requests::default();
        if let Some((from, list)) = kept {
            copy_field_list(&self.field_lists, list, from, &mut self.arena);
        }
        self.pass_length = packet.len() as u64;
        self.externs.ingress_length = self.pass_length;
        self.now_us = self.now_us();
        // Only a packet from the wire has its port: simple_switch clears
        // the metadata of resubmitted and recirculated packets, and writes
        // `ingress_port` when a packet is received.
        self.std.start_ingress(
            &mut self.arena,
            (instance_type == NORMAL).then_some(port),
            instance_type,
            self.pass_length,
            self.now_us,
        );
        let cursor = self.parse(packet);
        let payload = &packet[(cursor / 8).min(packet.len())..];
        self.verify_and_ingress(payload);
        let requests = self.externs.requests;
        // The state after ingress is kept when more than one copy (or a
        // clone, or a resubmit keeping fields) starts from it; a plain
        // unicast packet runs egress on the arena as it is. (An I2E clone
        // puts that state back: `mcast_grp` is read once.)
        let mcast = self.std.mcast_grp.read(&self.arena);
        let snapshot = requests.clone.is_some() || requests.resubmit.is_some() || mcast != 0;
        if snapshot {
            self.after_ingress.copy_from_slice(&self.arena);
        }
        // I2E clone: the packet as received, parsed again, with only the
        // listed metadata, to the session's port (or group).
        let mut clones = Vec::new();
        if let Some(c) = requests.clone.filter(|c| !c.egress) {
            clones = self.ingress_clone(c, port, packet);
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
                clones = clones.len(),
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
        let mut again = None;
        // Clones are queued before the packet's own copies.
        let mut pending: Vec<EgressCopy> = clones;
        for (i, &(rid, egress_port)) in copies.iter().enumerate() {
            if i > 0 {
                self.arena.copy_from_slice(&self.after_ingress);
            }
            self.externs.truncate_to = truncate_after_ingress;
            if let Some(pass) = self.egress(egress_port, rid, copy_type, payload, &mut pending, out)
            {
                again = Some(pass);
            }
        }
        // Clones (and clones of clones) run egress after the original.
        while let Some(copy) = pending.pop() {
            self.arena.copy_from_slice(&copy.arena);
            self.externs.truncate_to = None;
            if let Some(pass) = self.egress(
                copy.port,
                copy.rid,
                copy.instance_type,
                payload,
                &mut pending,
                out,
            ) {
                again = Some(pass);
            }
        }
        if let Some(list) = resubmit {
            return Some(Pass {
                bytes: packet.to_vec(),
                instance_type: RESUBMITTED,
                kept: list.map(|l| (self.after_ingress.clone(), l)),
            });
        }
        again
    }

    /// Runs egress for one copy whose state is in the arena; sends it, or
    /// returns it to recirculate. E2E clones are added to `pending`.
    fn egress(
        &mut self,
        egress_port: u32,
        rid: u16,
        instance_type: u64,
        payload: &[u8],
        pending: &mut Vec<EgressCopy>,
        out: &mut dyn FnMut(u32, &[u8]),
    ) -> Option<Pass> {
        // The model has no queues: egress starts in the microsecond ingress
        // did (one clock read per pass).
        let start = EgressStart {
            port: egress_port,
            rid,
            instance_type,
            length: self.pass_length,
            now_us: self.now_us,
        };
        self.std.start_egress(&mut self.arena, start);
        self.externs.requests = Requests::default();
        self.run_egress();
        let requests = self.externs.requests;
        if let Some(c) = requests.clone.filter(|c| c.egress) {
            self.egress_clone(c, pending);
        }
        if self.std.egress_spec.read(&self.arena) == DROP_PORT {
            if self.trace {
                tracing::info!(target: "janus::trace", egress_port, "dropped in egress");
            }
            return None;
        }
        self.compute_and_deparse(payload);
        // A recirculated packet is the whole deparsed packet: truncation
        // only limits what is sent (as in bmv2).
        if let Some(list) = requests.recirculate {
            if self.trace {
                tracing::info!(target: "janus::trace", len = self.output.len(), "recirculated");
            }
            return Some(Pass {
                bytes: self.output.clone(),
                instance_type: RECIRCULATED,
                kept: list.map(|l| (self.arena.clone(), l)),
            });
        }
        if let Some(n) = self.externs.truncate_to {
            self.output.truncate(n as usize);
        }
        if self.trace {
            tracing::info!(target: "janus::trace", egress_port, len = self.output.len(), "packet out");
        }
        out(egress_port, &self.output);
        None
    }

    /// The copies an I2E clone makes: the received packet parsed afresh,
    /// keeping the listed metadata of the packet in `after_ingress` (the
    /// caller restores the arena from it).
    fn ingress_clone(&mut self, c: CloneRequest, port: u32, packet: &[u8]) -> Vec<EgressCopy> {
        let Some(targets) = self.mirror_targets(c.session) else {
            return Vec::new();
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
        let mut copies = Vec::with_capacity(targets.len());
        for (rid, p) in targets {
            copies.push(EgressCopy {
                arena: self.arena.clone(),
                port: p,
                rid,
                instance_type: INGRESS_CLONE,
            });
        }
        copies
    }

    /// An E2E clone of the copy in the arena: its headers as egress left
    /// them, metadata cleared except the listed fields.
    fn egress_clone(&mut self, c: CloneRequest, pending: &mut Vec<EgressCopy>) {
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
            pending.push(EgressCopy {
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

    /// Runs the parser over `packet`; returns the bits it consumed.
    fn parse(&mut self, packet: &[u8]) -> usize {
        let mut env = Env::parsing(&mut self.arena, packet)
            .with_tables(&self.tables, &mut self.results)
            .with_profiles(&self.profiles)
            .with_externs(&mut self.externs)
            .with_trace(self.trace);
        let outcome = run_parser(&self.parser, &mut env);
        // A parser error does not drop: it is recorded in parser_error.
        if let Outcome::Reject(Some(e)) = outcome {
            self.std.parser_error.write(env.arena, e as u64);
        }
        if self.trace {
            tracing::info!(target: "janus::trace", ?outcome, parsed_bits = env.cursor, "parser done");
        }
        env.cursor
    }

    /// Runs verify checksum, then ingress, in one environment; `payload`
    /// (the bytes the parser left) is what the `*_with_payload` checksums
    /// add.
    fn verify_and_ingress(&mut self, payload: &[u8]) {
        let mut env = Env::pipeline(
            &mut self.arena,
            &self.tables,
            &mut self.results,
            &self.profiles,
            &mut self.externs,
            self.trace,
        );
        env.input = payload;
        // Direct counters charge the length as received, as bmv2.
        env.packet_bytes = self.pass_length;
        env.now_us = self.now_us;
        run(&self.verify, &mut env);
        // A control leaves the environment as it found it but for the
        // state; the cursor and output bits are reset all the same.
        (env.cursor, env.out_bits) = (0, 0);
        env.input = &[];
        run(&self.ingress, &mut env);
    }

    /// Runs egress on the copy in the arena.
    fn run_egress(&mut self) {
        let mut env = Env::pipeline(
            &mut self.arena,
            &self.tables,
            &mut self.results,
            &self.profiles,
            &mut self.externs,
            self.trace,
        );
        env.packet_bytes = self.pass_length;
        env.now_us = self.now_us;
        run(&self.egress, &mut env);
    }

    /// Runs compute checksum (whose `*_with_payload` checksums add
    /// `payload`), then the deparser into `self.output` (reused), in one
    /// environment; then appends `payload`.
    fn compute_and_deparse(&mut self, payload: &[u8]) {
        self.output.clear();
        let output = &mut self.output;
        let mut env = Env::pipeline(
            &mut self.arena,
            &self.tables,
            &mut self.results,
            &self.profiles,
            &mut self.externs,
            self.trace,
        );
        env.input = payload;
        env.packet_bytes = self.pass_length;
        env.now_us = self.now_us;
        run(&self.compute, &mut env);
        // The deparser sees no packet: it emits into the output.
        (env.cursor, env.out_bits) = (0, 0);
        (env.input, env.packet_bytes, env.now_us) = (&[], 0, 0);
        env.output = Some(output);
        run(&self.deparser, &mut env);
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
