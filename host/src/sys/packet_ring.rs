//! An interface reached through an `AF_PACKET` socket with memory-mapped
//! receive and transmit rings (`TPACKET_V2`, the kernel's
//! `Documentation/networking/packet_mmap.rst`): frames are read and
//! written in place in memory the kernel shares, in batches, with one
//! system call per batch to send and none to receive. Frames the
//! interface itself sends are not received (`PACKET_IGNORE_OUTGOING`,
//! else skipped by their packet type); a VLAN tag the kernel took out
//! of a received frame (`TP_STATUS_VLAN_VALID`) is put back, so the
//! pipeline sees the frame as it was on the wire.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicU32, Ordering};

use super::check;
use super::iface::{bind_packet, packet_socket};

// From <linux/if_packet.h>.
const PACKET_RX_RING: libc::c_int = 5;
const PACKET_VERSION: libc::c_int = 10;
const PACKET_TX_RING: libc::c_int = 13;
const PACKET_QDISC_BYPASS: libc::c_int = 20;
const PACKET_IGNORE_OUTGOING: libc::c_int = 23;
const TPACKET_V2: libc::c_int = 1;
const TP_STATUS_KERNEL: u32 = 0;
const TP_STATUS_USER: u32 = 1;
const TP_STATUS_COPY: u32 = 1 << 1;
const TP_STATUS_VLAN_VALID: u32 = 1 << 4;
const TP_STATUS_VLAN_TPID_VALID: u32 = 1 << 6;
const TP_STATUS_AVAILABLE: u32 = 0;
const TP_STATUS_SEND_REQUEST: u32 = 1;
const TP_STATUS_SENDING: u32 = 1 << 1;
const TP_STATUS_WRONG_FORMAT: u32 = 1 << 2;
/// `TPACKET_ALIGN(sizeof(struct tpacket2_hdr))`: where a transmitted
/// frame's data starts.
const TX_DATA_OFFSET: usize = 32;

/// `struct tpacket_req`.
#[repr(C)]
struct TpacketReq {
    block_size: u32,
    block_nr: u32,
    frame_size: u32,
    frame_nr: u32,
}

/// The start of `struct tpacket2_hdr` (the fields read and written).
#[repr(C)]
struct Tpacket2Hdr {
    status: AtomicU32,
    len: u32,
    snaplen: u32,
    mac: u16,
    net: u16,
    sec: u32,
    nsec: u32,
    vlan_tci: u16,
    vlan_tpid: u16,
}

/// The sizes of a ring port's rings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RingConfig {
    /// Bytes per frame slot (a power of two, at least 2048): the largest
    /// frame is somewhat smaller (the slot holds the kernel's header).
    pub frame_size: u32,
    /// Slots in each of the receive and transmit rings.
    pub frames: u32,
}

impl Default for RingConfig {
    /// 2048-byte slots (frames up to the 1500-byte MTU with VLAN tags),
    /// 2048 of them each way: 4 MiB per ring.
    fn default() -> Self {
        RingConfig {
            frame_size: 2048,
            frames: 2048,
        }
    }
}

/// What a ring port counted (since it was opened).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RingStats {
    /// Frames received longer than a slot holds: dropped.
    pub truncated: u64,
    /// Frames not queued for sending: the ring was full or the frame too
    /// long.
    pub tx_full: u64,
    /// Frames the kernel refused to send (`TP_STATUS_WRONG_FORMAT`).
    pub tx_refused: u64,
}

/// A Linux interface bound with mmap'd rings.
pub struct RingPort {
    fd: OwnedFd,
    map: *mut u8,
    map_len: usize,
    frame_size: usize,
    frames: usize,
    /// The next receive slot to look at.
    rx_next: usize,
    /// The next transmit slot to fill.
    tx_next: usize,
    /// Frames queued since the last [`RingPort::flush`].
    tx_pending: usize,
    /// Whether the kernel drops outgoing frames for us
    /// (`PACKET_IGNORE_OUTGOING`, Linux 4.20).
    ignores_outgoing: bool,
    /// A frame with its VLAN tag put back.
    scratch: Vec<u8>,
    stats: RingStats,
}

// SAFETY: the mapping is owned by this value alone (no other handle to
// it is given out), so moving it to another thread is sound.
unsafe impl Send for RingPort {}

fn setsockopt<T>(fd: &OwnedFd, name: libc::c_int, value: &T) -> io::Result<()> {
    // SAFETY: `value` is valid for `size_of::<T>()` bytes of reads.
    check(unsafe {
        libc::setsockopt(
            fd.as_raw_fd(),
            libc::SOL_PACKET,
            name,
            (value as *const T).cast(),
            std::mem::size_of::<T>() as libc::socklen_t,
        )
    })
    .map(|_| ())
}

impl RingPort {
    /// Opens interface `name` (which must exist) with rings of `config`.
    pub fn open(name: &str, config: RingConfig) -> io::Result<RingPort> {
        let RingConfig { frame_size, frames } = config;
        if frame_size < 2048 || !frame_size.is_power_of_two() || frames == 0 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "ring frames of {frame_size} bytes, {frames} of them: slots are a power of two of at least 2048 bytes"
                ),
            ));
        }
        let (fd, index) = packet_socket(name)?;
        setsockopt(&fd, PACKET_VERSION, &TPACKET_V2)?;
        // One frame per block: the block size must be a multiple of the
        // page size, so blocks are at least a page.
        let page = 4096u32;
        let block_size = frame_size.max(page);
        let per_block = block_size / frame_size;
        let blocks = frames.div_ceil(per_block);
        let req = TpacketReq {
            block_size,
            block_nr: blocks,
            frame_size,
            frame_nr: blocks * per_block,
        };
        setsockopt(&fd, PACKET_RX_RING, &req)?;
        setsockopt(&fd, PACKET_TX_RING, &req)?;
        let ignores_outgoing = setsockopt(&fd, PACKET_IGNORE_OUTGOING, &1i32).is_ok();
        // Best effort: straight to the driver, past the queueing
        // discipline (as a NIC's own port would be).
        let _ = setsockopt(&fd, PACKET_QDISC_BYPASS, &1i32);
        let ring_len = block_size as usize * blocks as usize;
        let map_len = 2 * ring_len;
        // SAFETY: a fresh shared mapping of the socket's rings, of the
        // length the kernel set up.
        let map = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                map_len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                fd.as_raw_fd(),
                0,
            )
        };
        if map == libc::MAP_FAILED {
            return Err(super::last_error());
        }
        let port = RingPort {
            fd,
            map: map.cast(),
            map_len,
            frame_size: frame_size as usize,
            frames: req.frame_nr as usize,
            rx_next: 0,
            tx_next: 0,
            tx_pending: 0,
            ignores_outgoing,
            scratch: Vec::with_capacity(frame_size as usize + 4),
            stats: RingStats::default(),
        };
        bind_packet(&port.fd, index)?;
        Ok(port)
    }

    /// The header of slot `i` of the ring starting at `base`.
    fn header(&self, base: usize, i: usize) -> &Tpacket2Hdr {
        let at = base + i * self.frame_size;
        debug_assert!(at + self.frame_size <= self.map_len);
        // SAFETY: `at` is the start of a slot inside the mapping, aligned
        // to the slot size; the kernel and we share it through `status`.
        unsafe { &*self.map.add(at).cast::<Tpacket2Hdr>() }
    }

    fn slot(&self, base: usize, i: usize) -> *mut u8 {
        // SAFETY: inside the mapping (see `header`).
        unsafe { self.map.add(base + i * self.frame_size) }
    }

    /// Hands at most `max` received frames to `f`, oldest first, and gives
    /// their slots back to the kernel; returns how many were handed over.
    /// Never blocks (poll [`RingPort::raw_fd`] to wait).
    pub fn recv_batch(&mut self, max: usize, mut f: impl FnMut(&[u8])) -> usize {
        let mut done = 0;
        while done < max {
            let i = self.rx_next;
            let h = self.header(0, i);
            let status = h.status.load(Ordering::Acquire);
            if status & TP_STATUS_USER == 0 {
                break;
            }
            let (len, snaplen, mac) = (h.len as usize, h.snaplen as usize, h.mac as usize);
            let (tci, tpid) = (h.vlan_tci, h.vlan_tpid);
            self.rx_next = (i + 1) % self.frames;
            let outgoing = !self.ignores_outgoing && self.is_outgoing(i);
            if snaplen < len || status & TP_STATUS_COPY != 0 || mac + snaplen > self.frame_size {
                self.stats.truncated += 1;
            } else if !outgoing {
                // SAFETY: the frame lies inside the slot (checked above),
                // which the kernel handed to us until status is reset.
                let frame =
                    unsafe { std::slice::from_raw_parts(self.slot(0, i).add(mac), snaplen) };
                if status & TP_STATUS_VLAN_VALID != 0 && frame.len() >= 12 {
                    let tpid = if status & TP_STATUS_VLAN_TPID_VALID != 0 {
                        tpid
                    } else {
                        0x8100
                    };
                    self.scratch.clear();
                    self.scratch.extend_from_slice(&frame[..12]);
                    self.scratch.extend_from_slice(&tpid.to_be_bytes());
                    self.scratch.extend_from_slice(&tci.to_be_bytes());
                    self.scratch.extend_from_slice(&frame[12..]);
                    f(&self.scratch);
                } else {
                    f(frame);
                }
                done += 1;
            }
            self.header(0, i)
                .status
                .store(TP_STATUS_KERNEL, Ordering::Release);
        }
        done
    }

    /// Whether received slot `i` holds a frame the interface sent (its
    /// `sockaddr_ll`, after the header, says `PACKET_OUTGOING`).
    fn is_outgoing(&self, i: usize) -> bool {
        // The sockaddr_ll follows the aligned tpacket2_hdr.
        let at = TX_DATA_OFFSET + std::mem::offset_of!(libc::sockaddr_ll, sll_pkttype);
        // SAFETY: inside the slot (its first 52 bytes are the headers).
        let pkttype = unsafe { *self.slot(0, i).add(at) };
        pkttype == libc::PACKET_OUTGOING
    }

    /// Puts `frame` in the transmit ring; `false` (and counted) when the
    /// ring is full or the frame does not fit a slot. Frames go out at the
    /// next [`RingPort::flush`].
    pub fn queue(&mut self, frame: &[u8]) -> bool {
        let ring = self.frames * self.frame_size;
        if frame.len() > self.frame_size - TX_DATA_OFFSET {
            self.stats.tx_full += 1;
            return false;
        }
        let i = self.tx_next;
        let status = self.header(ring, i).status.load(Ordering::Acquire);
        match status {
            TP_STATUS_AVAILABLE => {}
            TP_STATUS_WRONG_FORMAT => self.stats.tx_refused += 1,
            _ => {
                self.stats.tx_full += 1;
                return false;
            }
        }
        // SAFETY: the slot is ours (status available); the frame fits
        // after its header (checked above).
        unsafe {
            std::ptr::copy_nonoverlapping(
                frame.as_ptr(),
                self.slot(ring, i).add(TX_DATA_OFFSET),
                frame.len(),
            );
            let hdr = self.slot(ring, i).cast::<Tpacket2Hdr>();
            (*hdr).len = frame.len() as u32;
            (*hdr).snaplen = frame.len() as u32;
        }
        self.header(ring, i)
            .status
            .store(TP_STATUS_SEND_REQUEST, Ordering::Release);
        self.tx_next = (i + 1) % self.frames;
        self.tx_pending += 1;
        true
    }

    /// Asks the kernel to send the frames queued (one system call); a
    /// full device queue leaves them in the ring for the next flush.
    pub fn flush(&mut self) -> io::Result<()> {
        if self.tx_pending == 0 {
            return Ok(());
        }
        // SAFETY: a send of no data: the kernel walks the TX ring.
        let ret =
            unsafe { libc::send(self.fd.as_raw_fd(), std::ptr::null(), 0, libc::MSG_DONTWAIT) };
        if ret < 0 {
            let e = super::last_error();
            if matches!(e.raw_os_error(), Some(libc::EAGAIN) | Some(libc::ENOBUFS)) {
                return Ok(());
            }
            return Err(e);
        }
        self.tx_pending = 0;
        Ok(())
    }

    /// Whether frames queued earlier are still waiting to go out.
    pub fn sending(&self) -> bool {
        let ring = self.frames * self.frame_size;
        (0..self.frames).any(|i| {
            let s = self.header(ring, i).status.load(Ordering::Acquire);
            s == TP_STATUS_SEND_REQUEST || s == TP_STATUS_SENDING
        })
    }

    /// The largest frame a slot holds.
    pub fn max_frame(&self) -> usize {
        self.frame_size - TX_DATA_OFFSET
    }

    pub fn stats(&self) -> RingStats {
        self.stats
    }

    /// The descriptor to poll for received frames (readable) and errors
    /// (the interface went away: `POLLERR`).
    pub fn raw_fd(&self) -> RawFd {
        self.fd.as_raw_fd()
    }
}

impl Drop for RingPort {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `open`, unmapped once.
        unsafe {
            libc::munmap(self.map.cast(), self.map_len);
        }
    }
}

impl std::fmt::Debug for RingPort {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RingPort")
            .field("fd", &self.fd.as_raw_fd())
            .field("frame_size", &self.frame_size)
            .field("frames", &self.frames)
            .field("stats", &self.stats)
            .finish()
    }
}
