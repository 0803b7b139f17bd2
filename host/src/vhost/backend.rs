//! The data path: the `VhostUserBackend` the rust-vmm daemon drives. One
//! worker thread serves both virtqueues and the VF's interrupts; each wake-up
//! runs rounds of at most `batch` frames per direction (NIC to guest, guest
//! to NIC) until a round finds nothing to do, then re-arms the VF's
//! interrupts. Guest notifications are never suppressed, so a guest that
//! posts receive buffers or transmit frames always kicks.
//!
//! Nothing queues here: a frame from the NIC is read out of the VF's ring
//! only when the guest has a receive chain for it (otherwise the VF's ring
//! fills and the NIC drops and counts, as on a full host queue), and a
//! guest frame is taken off the transmit queue only when a VF transmit
//! buffer is free.

use std::io::{self, Read, Write};
use std::num::Wrapping;
use std::os::fd::RawFd;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};

use vhost::vhost_user::message::VhostUserProtocolFeatures;
use vhost_user_backend::{VhostUserBackend, VringMutex, VringState, VringT};
use virtio_queue::{Queue, QueueT};
use vm_memory::{GuestAddressSpace, GuestMemoryAtomic, GuestMemoryMmap};
use vmm_sys_util::epoll::EventSet;
use vmm_sys_util::event::{
    EventConsumer, EventFlag, EventNotifier, new_event_consumer_and_notifier,
};

use super::VhostError;
use super::net::{HEADER_LEN, backend_features, rx_header};
use crate::ring::Armed;
use crate::transport::{BUF_SIZE, HostEnd, HostEndCounters};

/// The guest's memory as the daemon maps it (no dirty-page bitmap).
pub(super) type Memory = GuestMemoryAtomic<GuestMemoryMmap<()>>;

/// The receive queue (NIC to guest).
const RX_QUEUE: u16 = 0;
/// The transmit queue (guest to NIC).
const TX_QUEUE: u16 = 1;
/// Virtqueues of the device: one pair.
const NUM_QUEUES: usize = 2;
/// The epoll token of the VF's interrupt counter (the daemon reserves
/// `0..=NUM_QUEUES` for the queues and its exit event).
pub(super) const NIC_EVENT: u64 = NUM_QUEUES as u64 + 1;
/// Descriptors per virtqueue the guest may use at most.
const MAX_QUEUE_SIZE: usize = 1024;

/// What the backend counted, across guest sessions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct VhostCounters {
    /// The VF transport's own counts.
    pub transport: HostEndCounters,
    /// Frames written into the guest's receive queue.
    pub to_guest: u64,
    /// Their bytes (without the virtio-net header).
    pub to_guest_bytes: u64,
    /// Frames taken from the guest's transmit queue and sent to the NIC.
    pub from_guest: u64,
    /// Their bytes (without the virtio-net header).
    pub from_guest_bytes: u64,
    /// Frames from the NIC dropped: the guest's receive chain was too
    /// small for header and frame.
    pub rx_too_small: u64,
    /// Guest transmit chains dropped: shorter than the header, unreadable,
    /// or a frame longer than a VF buffer or empty.
    pub tx_bad: u64,
    /// Interrupts sent to the guest.
    pub guest_interrupts: u64,
}

/// State shared by the daemon's threads and the server.
struct State {
    end: HostEnd,
    counters: VhostCounters,
    frame: Vec<u8>,
}

/// The backend handed to each guest session's daemon (clones share the
/// VF's transport and counters).
#[derive(Clone)]
pub(super) struct NetBackend {
    state: Arc<Mutex<State>>,
    /// The guest's memory, apart from `state`: the protocol thread sets it
    /// while the data path may hold `state` and wait for a queue.
    mem: Arc<Mutex<Option<Memory>>>,
    batch: usize,
    irq_fd: RawFd,
}

impl NetBackend {
    /// A backend over `end`, moving at most `batch` frames per direction
    /// per round.
    pub(super) fn new(end: HostEnd, batch: usize) -> Self {
        let irq_fd = end.irq_fd();
        Self {
            state: Arc::new(Mutex::new(State {
                end,
                counters: VhostCounters::default(),
                frame: vec![0; BUF_SIZE as usize],
            })),
            mem: Arc::new(Mutex::new(None)),
            batch: batch.max(1),
            irq_fd,
        }
    }

    /// The VF's interrupt counter, for the daemon's epoll.
    pub(super) fn irq_fd(&self) -> RawFd {
        self.irq_fd
    }

    /// What was counted so far.
    pub(super) fn counters(&self) -> VhostCounters {
        let state = self.lock();
        VhostCounters {
            transport: state.end.counters(),
            ..state.counters
        }
    }

    /// The VF's counters kept by the NIC (`function::Counter` order).
    pub(super) fn nic_counters(&self) -> [u64; 6] {
        self.lock().end.nic_counters()
    }

    /// Forgets the guest's memory when its session ends.
    pub(super) fn end_session(&self) {
        *self.memory() = None;
    }

    fn memory(&self) -> MutexGuard<'_, Option<Memory>> {
        self.mem.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave the counters or the
        // rings' bookkeeping half-written in a way that matters more than
        // stopping: keep serving.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl VhostUserBackend for NetBackend {
    type Bitmap = ();
    type Vring = VringMutex<Memory>;

    fn num_queues(&self) -> usize {
        NUM_QUEUES
    }

    fn max_queue_size(&self) -> usize {
        MAX_QUEUE_SIZE
    }

    fn features(&self) -> u64 {
        backend_features()
    }

    fn protocol_features(&self) -> VhostUserProtocolFeatures {
        VhostUserProtocolFeatures::empty()
    }

    fn set_event_idx(&self, _enabled: bool) {
        // VIRTIO_RING_F_EVENT_IDX is not offered.
    }

    fn update_memory(&self, mem: Memory) -> io::Result<()> {
        *self.memory() = Some(mem);
        Ok(())
    }

    fn exit_event(&self, _thread_index: usize) -> Option<(EventConsumer, EventNotifier)> {
        new_event_consumer_and_notifier(EventFlag::NONBLOCK | EventFlag::CLOEXEC).ok()
    }

    fn handle_event(
        &self,
        device_event: u16,
        _evset: EventSet,
        vrings: &[Self::Vring],
        _thread_id: usize,
    ) -> io::Result<()> {
        // Before the VMM sent its memory table there is nothing to map.
        let Some(mem) = self.memory().clone() else {
            return Ok(());
        };
        let mut state = self.lock();
        match u64::from(device_event) {
            e if e == u64::from(RX_QUEUE) || e == u64::from(TX_QUEUE) => {}
            NIC_EVENT => state.end.drain_interrupts().map_err(io::Error::other)?,
            other => return Err(io::Error::other(format!("unexpected event {other}"))),
        }
        let [rx, tx] = vrings else {
            return Err(io::Error::other("expected two virtqueues"));
        };
        state
            .pump(&mem.memory(), rx, tx, self.batch)
            .map_err(io::Error::other)
    }
}

impl State {
    /// Rounds until one finds nothing to do and the VF's interrupts are
    /// armed.
    fn pump(
        &mut self,
        mem: &GuestMemoryMmap<()>,
        rx: &VringMutex<Memory>,
        tx: &VringMutex<Memory>,
        batch: usize,
    ) -> Result<(), VhostError> {
        loop {
            let reclaimed = self.end.reclaim()?;
            let (delivered, guest_has_room) =
                self.deliver_to_guest(mem, &mut rx.get_mut(), batch)?;
            let sent = self.take_from_guest(mem, &mut tx.get_mut(), batch)?;
            if reclaimed + delivered + sent > 0 {
                continue;
            }
            if self.end.arm() == Armed::Idle {
                return Ok(());
            }
            // Something arrived while arming. Transmit completions are
            // always work; frames for the guest only while it has room (its
            // next receive kick wakes us otherwise).
            if !guest_has_room && self.end.reclaim()? == 0 {
                return Ok(());
            }
        }
    }

    /// Moves up to `batch` frames from the VF into the guest's receive
    /// chains; returns how many it took from the VF and whether the guest
    /// still has chains.
    fn deliver_to_guest(
        &mut self,
        mem: &GuestMemoryMmap<()>,
        vring: &mut VringState<Memory>,
        batch: usize,
    ) -> Result<(usize, bool), VhostError> {
        if !vring.is_enabled() || !vring.get_queue().ready() {
            return Ok((0, false));
        }
        let queue = vring.get_queue_mut();
        let avail = queue.avail_idx(mem, Ordering::Acquire)?;
        let waiting = usize::from((avail - Wrapping(queue.next_avail())).0);
        let room = waiting.min(batch);
        if room == 0 {
            return Ok((0, false));
        }
        let counters = &mut self.counters;
        let mut failed = None;
        let n = self.end.receive(room, |frame| {
            if failed.is_some() {
                return;
            }
            match deliver(mem, queue, frame) {
                Ok(true) => {
                    counters.to_guest += 1;
                    counters.to_guest_bytes += frame.len() as u64;
                }
                Ok(false) => counters.rx_too_small += 1,
                Err(e) => failed = Some(e),
            }
        })?;
        if let Some(e) = failed {
            return Err(e);
        }
        if n > 0 {
            self.notify(mem, vring)?;
        }
        Ok((n, waiting > n))
    }

    /// Sends up to `batch` frames of the guest's transmit queue to the VF,
    /// while VF transmit buffers are free; returns how many chains it took.
    fn take_from_guest(
        &mut self,
        mem: &GuestMemoryMmap<()>,
        vring: &mut VringState<Memory>,
        batch: usize,
    ) -> Result<usize, VhostError> {
        if !vring.is_enabled() || !vring.get_queue().ready() {
            return Ok(0);
        }
        let queue = vring.get_queue_mut();
        let mut taken = 0;
        while taken < batch && self.end.can_send() {
            let Some(chain) = queue.pop_descriptor_chain(mem) else {
                break;
            };
            let head = chain.head_index();
            let frame = read_frame(mem, chain, &mut self.frame);
            match frame {
                Some(len) if self.end.send(&self.frame[..len])? => {
                    self.counters.from_guest += 1;
                    self.counters.from_guest_bytes += len as u64;
                }
                _ => self.counters.tx_bad += 1,
            }
            queue.add_used(mem, head, 0)?;
            taken += 1;
        }
        if taken > 0 {
            self.end.flush()?;
            self.notify(mem, vring)?;
        }
        Ok(taken)
    }

    /// Interrupts the guest if the queue's used ring asks for it.
    fn notify(
        &mut self,
        mem: &GuestMemoryMmap<()>,
        vring: &mut VringState<Memory>,
    ) -> Result<(), VhostError> {
        if vring.get_queue_mut().needs_notification(mem)? {
            vring.signal_used_queue().map_err(VhostError::Notify)?;
            self.counters.guest_interrupts += 1;
        }
        Ok(())
    }
}

/// Writes header and `frame` into the next receive chain of `queue` and
/// returns it used; `false` (the chain returned empty) when it is too small
/// or unwritable.
fn deliver(mem: &GuestMemoryMmap<()>, queue: &mut Queue, frame: &[u8]) -> Result<bool, VhostError> {
    // The caller counted the chains: one is there.
    let Some(chain) = queue.pop_descriptor_chain(mem) else {
        return Ok(false);
    };
    let head = chain.head_index();
    let written = match chain.writer(mem) {
        Ok(mut w) if w.available_bytes() >= HEADER_LEN + frame.len() => w
            .write_all(&rx_header())
            .and_then(|()| w.write_all(frame))
            .map_or(0, |()| w.bytes_written()),
        _ => 0,
    };
    // At most the chain's length, a u32 sum.
    queue.add_used(mem, head, written as u32)?;
    Ok(written > 0)
}

/// Reads the frame of a transmit chain (after its header) into `buf`;
/// `None` when the chain is malformed or the frame empty or too long.
fn read_frame(
    mem: &GuestMemoryMmap<()>,
    chain: virtio_queue::DescriptorChain<&GuestMemoryMmap<()>>,
    buf: &mut [u8],
) -> Option<usize> {
    let mut reader = chain.reader(mem).ok()?;
    let len = reader.available_bytes().checked_sub(HEADER_LEN)?;
    if len == 0 || len > buf.len() {
        return None;
    }
    let mut header = [0; HEADER_LEN];
    reader.read_exact(&mut header).ok()?;
    reader.read_exact(&mut buf[..len]).ok()?;
    Some(len)
}
