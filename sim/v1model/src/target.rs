//! [`Target`] for [`V1Switch`]: the control plane's entry points.

use crate::V1Switch;
use janus_engine::meter::Rate;
use janus_engine::pipeline::{ProfileInfo, TableInfo, ValueSetInfo};
use janus_engine::profile::ActionProfile;
use janus_engine::table::TableState;
use janus_engine::target::{EntityError, MirrorTarget, Target};
use janus_engine::value::Bits;
use janus_p4::ir;

fn no_instance(kind: &'static str, name: &str) -> EntityError {
    EntityError::NoSuchInstance {
        kind,
        name: name.to_string(),
    }
}

fn no_cell(kind: &'static str, name: &str, index: usize) -> EntityError {
    EntityError::NoSuchCell {
        kind,
        name: name.to_string(),
        index,
    }
}

impl Target for V1Switch {
    fn program(&self) -> &ir::Program {
        &self.program
    }

    fn set_trace(&mut self, on: bool) {
        self.trace = on;
    }

    fn now_us(&self) -> u64 {
        self.clock.now_us()
    }

    fn process_with(&mut self, port: u32, packet: &[u8], out: &mut dyn FnMut(u32, &[u8])) {
        self.run_packet(port, packet, out);
    }

    fn tables(&self) -> &[TableInfo] {
        self.entities.tables()
    }

    fn table(&self, slot: usize) -> Option<&TableState> {
        self.entities.table(slot)
    }

    fn table_mut(&mut self, slot: usize) -> Option<&mut TableState> {
        self.entities.table_mut(slot)
    }

    fn profiles(&self) -> &[ProfileInfo] {
        self.entities.profiles()
    }

    fn profile_mut(&mut self, name: &str) -> Option<&mut ActionProfile> {
        self.entities.profile_mut(name)
    }

    fn value_sets(&self) -> &[ValueSetInfo] {
        self.entities.value_sets()
    }

    fn value_set_mut(&mut self, name: &str) -> Option<&mut TableState> {
        self.entities.value_set_mut(name)
    }

    fn extern_names(&self) -> Vec<&str> {
        self.externs.names.keys().map(String::as_str).collect()
    }

    fn counter(&self, name: &str, index: usize) -> Option<(u64, u64)> {
        self.externs.counter(self.instance(name)?, index)
    }

    fn counter_write(
        &mut self,
        name: &str,
        index: usize,
        packets: u64,
        bytes: u64,
    ) -> Result<(), EntityError> {
        let id = self
            .instance(name)
            .ok_or_else(|| no_instance("counter", name))?;
        let cell = self
            .externs
            .counter_mut(id, index)
            .ok_or_else(|| no_cell("counter", name, index))?;
        *cell = (packets, bytes);
        Ok(())
    }

    fn register(&self, name: &str, index: usize) -> Option<&Bits> {
        self.externs.register(self.instance(name)?, index)
    }

    fn register_write(&mut self, name: &str, index: usize, value: u64) -> Result<(), EntityError> {
        let id = self
            .instance(name)
            .ok_or_else(|| no_instance("register", name))?;
        let cell = self
            .externs
            .register_mut(id, index)
            .ok_or_else(|| no_cell("register", name, index))?;
        *cell = Bits::from_u64(cell.width(), false, value);
        Ok(())
    }

    fn register_reset(&mut self, name: &str) -> Result<(), EntityError> {
        match self.instance(name) {
            Some(id) if self.externs.register_reset(id) => Ok(()),
            _ => Err(no_instance("register", name)),
        }
    }

    fn set_meter_rates(
        &mut self,
        name: &str,
        index: Option<usize>,
        committed: Rate,
        peak: Rate,
    ) -> Result<(), EntityError> {
        let id = self
            .instance(name)
            .ok_or_else(|| no_instance("meter", name))?;
        if self.externs.set_meter_rates(id, index, committed, peak) {
            return Ok(());
        }
        Err(match index {
            Some(index) => no_cell("meter", name, index),
            None => no_instance("meter", name),
        })
    }

    fn take_digests(&mut self) -> (Vec<(u64, Vec<u8>)>, u64) {
        let dropped = std::mem::take(&mut self.externs.digests_dropped);
        (std::mem::take(&mut self.externs.digests), dropped)
    }

    fn mirroring_add(&mut self, session: u32, target: MirrorTarget) {
        self.mirror.insert(session, target);
    }

    fn mirroring_delete(&mut self, session: u32) -> Result<(), EntityError> {
        match self.mirror.remove(&session) {
            Some(_) => Ok(()),
            None => Err(EntityError::NoSuchObject {
                kind: "clone session",
                id: u64::from(session),
            }),
        }
    }

    fn mc_group_set(&mut self, group: u16, copies: Vec<(u16, u32)>) {
        self.group_nodes.remove(&group);
        if copies.is_empty() {
            self.groups.remove(&group);
        } else {
            self.groups.insert(group, copies);
        }
    }

    fn mc_group_create(&mut self, group: u16) {
        self.groups.entry(group).or_default();
        self.group_nodes.entry(group).or_default();
    }

    fn mc_node_create(&mut self, rid: u16, ports: Vec<u32>) -> u32 {
        self.nodes.push((rid, ports));
        self.nodes.len() as u32 - 1
    }

    fn mc_node_associate(&mut self, group: u16, handle: u32) -> Result<(), EntityError> {
        if handle as usize >= self.nodes.len() {
            return Err(EntityError::NoSuchObject {
                kind: "multicast node",
                id: u64::from(handle),
            });
        }
        let handles = self
            .group_nodes
            .get_mut(&group)
            .ok_or(EntityError::NoSuchObject {
                kind: "multicast group",
                id: u64::from(group),
            })?;
        handles.push(handle);
        self.expand_group(group);
        Ok(())
    }

    fn mc_node_update(&mut self, handle: u32, ports: Vec<u32>) -> Result<(), EntityError> {
        let node = self
            .nodes
            .get_mut(handle as usize)
            .ok_or(EntityError::NoSuchObject {
                kind: "multicast node",
                id: u64::from(handle),
            })?;
        node.1 = ports;
        let groups: Vec<u16> = self
            .group_nodes
            .iter()
            .filter(|(_, hs)| hs.contains(&handle))
            .map(|(g, _)| *g)
            .collect();
        for g in groups {
            self.expand_group(g);
        }
        Ok(())
    }
}
