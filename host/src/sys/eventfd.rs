//! Event counters (`eventfd(2)`): the doorbells (shim to NIC) and
//! interrupts (NIC to shim) between the two processes.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};

use super::check;

/// A non-blocking event counter: [`EventFd::signal`] adds one, a reader
/// waiting in `poll` wakes up, [`EventFd::drain`] resets it.
#[derive(Debug)]
pub struct EventFd(File);

impl EventFd {
    /// A new counter at zero.
    pub fn new() -> io::Result<Self> {
        // SAFETY: eventfd takes no pointers; a non-negative return is a new
        // descriptor that nothing else owns.
        let fd = check(unsafe { libc::eventfd(0, libc::EFD_NONBLOCK | libc::EFD_CLOEXEC) })?;
        // SAFETY: `fd` was just created and is owned by nobody else.
        Ok(Self(File::from(unsafe { OwnedFd::from_raw_fd(fd) })))
    }

    /// A counter received from the peer process.
    pub fn from_fd(fd: OwnedFd) -> Self {
        Self(File::from(fd))
    }

    /// Adds one (wakes the peer). A full counter (2^64 - 2 pending) is
    /// already a wake-up, so `WouldBlock` is not an error.
    pub fn signal(&self) -> io::Result<()> {
        match (&self.0).write(&1u64.to_ne_bytes()) {
            Ok(_) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Resets the counter, returning how many signals were pending.
    pub fn drain(&self) -> io::Result<u64> {
        let mut buf = [0u8; 8];
        match (&self.0).read(&mut buf) {
            Ok(_) => Ok(u64::from_ne_bytes(buf)),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(0),
            Err(e) => Err(e),
        }
    }
}

impl AsFd for EventFd {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.0.as_fd()
    }
}

impl AsRawFd for EventFd {
    fn as_raw_fd(&self) -> RawFd {
        self.0.as_raw_fd()
    }
}
