//! The NIC's side of its functions: each function's register space, shared
//! region and device ends.

use std::sync::Arc;

use super::doorbell::DoorbellSet;
use super::vf::VfHandle;
use super::{Counter, Direction, FunctionError, FunctionKind, QueueConfig, VfIndex};
use crate::regs::{FunctionKindCode, FunctionLayout, FunctionShape};
use crate::ring::{Device, RingConfig, SharedRegion};

use janus_nic::ports;

/// What a function's NIC side and its tenant handle both hold.
#[derive(Debug, Clone)]
pub(crate) struct Shared {
    pub(crate) layout: Arc<FunctionLayout>,
    pub(crate) regs: Arc<[u8]>,
    pub(crate) region: Arc<SharedRegion>,
    pub(crate) doorbells: Arc<DoorbellSet>,
}

impl Shared {
    /// The ring config of `pair`'s ring in direction `dir`.
    pub(crate) fn ring(&self, pair: u16, dir: Direction) -> Result<RingConfig, FunctionError> {
        let pairs = self.layout.shape.queue_pairs;
        let qp = self
            .layout
            .queues
            .get(usize::from(pair))
            .ok_or(FunctionError::NoSuchQueue { pair, pairs })?;
        Ok(RingConfig {
            layout: match dir {
                Direction::Rx => qp.rx,
                Direction::Tx => qp.tx,
            },
            suppression: self.layout.shape.suppression,
        })
    }
}

/// Marks ring `slot` of `taken` as handed out; fails if it already was.
pub(crate) fn take_once(
    taken: &mut [bool],
    slot: usize,
    what: &'static str,
) -> Result<(), FunctionError> {
    match taken.get_mut(slot) {
        Some(t) if !*t => {
            *t = true;
            Ok(())
        }
        _ => Err(FunctionError::AlreadyTaken(what)),
    }
}

/// One function as the NIC holds it.
#[derive(Debug)]
pub struct FunctionSpace {
    kind: FunctionKind,
    shared: Shared,
    devices_taken: Vec<bool>,
    handle_taken: bool,
}

impl FunctionSpace {
    /// Lays out a function: its register space and a zeroed shared region.
    pub fn new(kind: FunctionKind, queues: QueueConfig) -> Result<Self, FunctionError> {
        let (code, vf_index, port) = match kind {
            FunctionKind::Physical => (FunctionKindCode::Physical, 0, ports::CPU_PORT),
            FunctionKind::Virtual(vf) => (FunctionKindCode::Virtual, vf.get(), vf.port()),
        };
        let layout = FunctionLayout::plan(FunctionShape {
            kind: code,
            vf_index,
            port,
            queue_pairs: queues.queue_pairs,
            ring_size: queues.ring_size,
            suppression: queues.suppression,
        })?;
        let regs: Arc<[u8]> = layout.build_space()?.into();
        // `plan` bounds the region by MAX_REGION_LEN, which fits a usize.
        let region = Arc::new(SharedRegion::new(layout.region_len as usize)?);
        let doorbells = Arc::new(DoorbellSet::new(layout.doorbell_count()));
        Ok(Self {
            kind,
            devices_taken: vec![false; layout.doorbell_count()],
            shared: Shared {
                layout: Arc::new(layout),
                regs,
                region,
                doorbells,
            },
            handle_taken: false,
        })
    }

    /// Physical or virtual.
    pub fn kind(&self) -> FunctionKind {
        self.kind
    }

    /// The function's register space.
    pub fn registers(&self) -> &[u8] {
        &self.shared.regs
    }

    /// The device end of `pair`'s ring in direction `dir` (once per ring).
    pub fn device(&mut self, pair: u16, dir: Direction) -> Result<Device, FunctionError> {
        let config = self.shared.ring(pair, dir)?;
        take_once(&mut self.devices_taken, dir.slot(pair), "device end")?;
        Ok(Device::new(self.shared.region.clone(), config)?)
    }

    /// The value the driver last wrote to the doorbell of `pair`'s ring in
    /// direction `dir`, if it rang since the last call.
    pub fn take_doorbell(&self, pair: u16, dir: Direction) -> Result<Option<u32>, FunctionError> {
        self.shared.ring(pair, dir)?;
        Ok(self.shared.doorbells.take(dir.slot(pair)))
    }

    /// Adds `n` to one of the function's counters.
    pub fn count(&self, counter: Counter, n: u64) -> Result<(), FunctionError> {
        let offset = self.shared.layout.counters + 8 * counter.index();
        Ok(self.shared.region.fetch_add_u64(offset, n)?)
    }

    /// The tenant's handle of a virtual function (once).
    pub fn vf_handle(&mut self) -> Result<VfHandle, FunctionError> {
        let FunctionKind::Virtual(index) = self.kind else {
            return Err(FunctionError::NotVirtual);
        };
        if self.handle_taken {
            return Err(FunctionError::AlreadyTaken("VF handle"));
        }
        self.handle_taken = true;
        Ok(VfHandle::new(index, self.shared.clone()))
    }
}

/// How many functions the NIC exposes and how their queues are shaped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostConfig {
    /// Number of virtual functions (at most [`super::MAX_VFS`]).
    pub vfs: u16,
    /// Queues of the physical function.
    pub pf_queues: QueueConfig,
    /// Queues of each virtual function.
    pub vf_queues: QueueConfig,
}

/// Every function of the NIC: the physical one and the virtual ones.
#[derive(Debug)]
pub struct HostInterface {
    pf: FunctionSpace,
    vfs: Vec<FunctionSpace>,
}

impl HostInterface {
    /// Lays out the physical function and `config.vfs` virtual functions,
    /// each with its own register space and shared region.
    pub fn new(config: HostConfig) -> Result<Self, FunctionError> {
        if config.vfs > super::MAX_VFS {
            return Err(FunctionError::BadVfIndex(config.vfs));
        }
        let pf = FunctionSpace::new(FunctionKind::Physical, config.pf_queues)?;
        let vfs = (0..config.vfs)
            .map(|i| FunctionSpace::new(FunctionKind::Virtual(VfIndex::new(i)?), config.vf_queues))
            .collect::<Result<_, _>>()?;
        Ok(Self { pf, vfs })
    }

    /// The physical function.
    pub fn pf(&mut self) -> &mut FunctionSpace {
        &mut self.pf
    }

    /// Virtual function `index`.
    pub fn vf(&mut self, index: u16) -> Result<&mut FunctionSpace, FunctionError> {
        self.vfs
            .get_mut(usize::from(index))
            .ok_or(FunctionError::NoSuchVf(index))
    }
}
