//! Linux network interfaces as frame queues: a TAP device (`TUNSETIFF` on
//! `/dev/net/tun`, no packet-information header) or an existing interface
//! through an `AF_PACKET` socket bound to it (a veth end). Both are
//! non-blocking and move one Ethernet frame per call.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::fs::OpenOptionsExt;

use super::{check, check_size};

/// Longest interface name (IFNAMSIZ - 1).
const MAX_NAME: usize = 15;

/// `TUNSETIFF` (`_IOW('T', 202, int)`).
const TUNSETIFF: libc::c_ulong = 0x4004_54ca;

/// An open interface.
#[derive(Debug)]
pub struct Iface {
    fd: OwnedFd,
    kind: IfaceKind,
}

/// How the interface is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum IfaceKind {
    Tap,
    Packet,
}

/// `struct ifreq` with the name and the flags/index union's first field.
#[repr(C)]
struct IfReq {
    name: [libc::c_char; libc::IFNAMSIZ],
    data: [u8; 24],
}

fn ifreq(name: &str) -> io::Result<IfReq> {
    if name.is_empty() || name.len() > MAX_NAME || name.bytes().any(|b| b == 0 || b == b'/') {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("bad interface name `{name}` (1 to {MAX_NAME} bytes)"),
        ));
    }
    let mut req = IfReq {
        name: [0; libc::IFNAMSIZ],
        data: [0; 24],
    };
    for (d, s) in req.name.iter_mut().zip(name.bytes()) {
        *d = s as libc::c_char;
    }
    Ok(req)
}

impl Iface {
    /// Opens (creating it if needed) the TAP device `name`. Bring it up and
    /// address it with `ip`.
    pub fn tap(name: &str) -> io::Result<Self> {
        let mut req = ifreq(name)?;
        let flags = (libc::IFF_TAP | libc::IFF_NO_PI) as u16;
        req.data[..2].copy_from_slice(&flags.to_ne_bytes());
        let file: File = OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
            .open("/dev/net/tun")?;
        // SAFETY: TUNSETIFF reads and writes one `struct ifreq`, which
        // `req` is (name and a 24-byte union).
        check(unsafe { libc::ioctl(file.as_raw_fd(), TUNSETIFF as _, &mut req) })?;
        Ok(Self {
            fd: file.into(),
            kind: IfaceKind::Tap,
        })
    }

    /// An `AF_PACKET` socket bound to the existing interface `name` (for
    /// instance a veth end), receiving every frame it carries.
    pub fn packet(name: &str) -> io::Result<Self> {
        let (fd, index) = packet_socket(name)?;
        bind_packet(&fd, index)?;
        Ok(Self {
            fd,
            kind: IfaceKind::Packet,
        })
    }

    /// Reads one frame into `buf`: `Ok(None)` when none is waiting. On a
    /// packet socket, frames the interface itself sends are skipped (they
    /// are this host's, not the peer's).
    pub fn recv(&self, buf: &mut [u8]) -> io::Result<Option<usize>> {
        let fd = self.fd.as_raw_fd();
        loop {
            // SAFETY: a zeroed sockaddr_ll is valid.
            let mut from: libc::sockaddr_ll = unsafe { std::mem::zeroed() };
            let mut from_len = std::mem::size_of::<libc::sockaddr_ll>() as libc::socklen_t;
            // SAFETY: `buf` is valid for `buf.len()` bytes of writes and
            // `from` for `from_len` bytes.
            let ret = unsafe {
                match self.kind {
                    IfaceKind::Tap => libc::read(fd, buf.as_mut_ptr().cast(), buf.len()),
                    IfaceKind::Packet => libc::recvfrom(
                        fd,
                        buf.as_mut_ptr().cast(),
                        buf.len(),
                        libc::MSG_TRUNC,
                        (&mut from as *mut libc::sockaddr_ll).cast(),
                        &mut from_len,
                    ),
                }
            };
            let got = would_block_is_none(check_size(ret))?;
            if self.kind == IfaceKind::Packet
                && got.is_some()
                && from.sll_pkttype == libc::PACKET_OUTGOING
            {
                continue;
            }
            return Ok(got);
        }
    }

    /// Writes one frame: `Ok(false)` when the interface's queue is full
    /// (the frame is not sent; the caller counts a drop).
    pub fn send(&self, frame: &[u8]) -> io::Result<bool> {
        let fd = self.fd.as_raw_fd();
        // SAFETY: `frame` is valid for `frame.len()` bytes of reads.
        let ret = unsafe {
            match self.kind {
                IfaceKind::Tap => libc::write(fd, frame.as_ptr().cast(), frame.len()),
                IfaceKind::Packet => libc::send(fd, frame.as_ptr().cast(), frame.len(), 0),
            }
        };
        Ok(would_block_is_none(check_size(ret))?.is_some())
    }

    /// The descriptor to poll.
    pub fn raw_fd(&self) -> RawFd {
        self.fd.as_raw_fd()
    }
}

fn would_block_is_none(r: io::Result<usize>) -> io::Result<Option<usize>> {
    match r {
        Ok(n) => Ok(Some(n)),
        Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(None),
        Err(e) => Err(e),
    }
}

/// A non-blocking `AF_PACKET` raw socket for every protocol, not bound
/// yet, and the index of interface `name`.
pub(crate) fn packet_socket(name: &str) -> io::Result<(OwnedFd, libc::c_int)> {
    ifreq(name)?;
    let cname = std::ffi::CString::new(name).map_err(|_| io::ErrorKind::InvalidInput)?;
    // SAFETY: `cname` is a valid C string.
    let index = unsafe { libc::if_nametoindex(cname.as_ptr()) };
    if index == 0 {
        return Err(super::last_error());
    }
    let proto = (libc::ETH_P_ALL as u16).to_be();
    // SAFETY: no pointers; a non-negative return is a new descriptor.
    let fd = check(unsafe {
        libc::socket(
            libc::AF_PACKET,
            libc::SOCK_RAW | libc::SOCK_NONBLOCK | libc::SOCK_CLOEXEC,
            libc::c_int::from(proto),
        )
    })?;
    // SAFETY: fresh descriptor owned by nobody else.
    Ok((unsafe { OwnedFd::from_raw_fd(fd) }, index as libc::c_int))
}

/// Binds a packet socket to interface `index`, every protocol.
pub(crate) fn bind_packet(fd: &OwnedFd, index: libc::c_int) -> io::Result<()> {
    // SAFETY: a zeroed sockaddr_ll is valid; fields set below.
    let mut addr: libc::sockaddr_ll = unsafe { std::mem::zeroed() };
    addr.sll_family = libc::AF_PACKET as u16;
    addr.sll_protocol = (libc::ETH_P_ALL as u16).to_be();
    addr.sll_ifindex = index;
    // SAFETY: `addr` is a sockaddr_ll of the size passed.
    check(unsafe {
        libc::bind(
            fd.as_raw_fd(),
            (&addr as *const libc::sockaddr_ll).cast(),
            std::mem::size_of::<libc::sockaddr_ll>() as libc::socklen_t,
        )
    })?;
    Ok(())
}
