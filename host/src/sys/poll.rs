//! Waiting on several descriptors at once (`poll(2)`).

use std::io;
use std::os::fd::RawFd;
use std::time::Duration;

use super::check;

/// One descriptor to wait on and what happened to it.
#[derive(Debug, Clone, Copy)]
pub struct PollFd(libc::pollfd);

impl PollFd {
    /// Wait for `fd` to be readable (and, always, for hang-up or error).
    pub fn readable(fd: RawFd) -> Self {
        Self(libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        })
    }

    /// Watch `fd` for hang-up and errors only.
    pub fn hangup(fd: RawFd) -> Self {
        Self(libc::pollfd {
            fd,
            events: 0,
            revents: 0,
        })
    }

    /// Whether it became readable.
    pub fn is_readable(&self) -> bool {
        self.0.revents & libc::POLLIN != 0
    }

    /// Whether the peer hung up or the descriptor failed.
    pub fn is_closed(&self) -> bool {
        self.0.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0
    }
}

/// Waits until one of `fds` is ready or `timeout` passes; returns how many
/// are ready (0 on timeout or interruption by a signal).
pub fn wait(fds: &mut [PollFd], timeout: Duration) -> io::Result<usize> {
    let ms = libc::c_int::try_from(timeout.as_millis()).unwrap_or(libc::c_int::MAX);
    // `PollFd` is a transparent wrapper in practice; pass the inner array.
    let mut raw: Vec<libc::pollfd> = fds.iter().map(|p| p.0).collect();
    // SAFETY: `raw` is a valid array of `raw.len()` pollfd structs.
    let ret = unsafe { libc::poll(raw.as_mut_ptr(), raw.len() as libc::nfds_t, ms) };
    match check(ret) {
        Ok(n) => {
            for (p, r) in fds.iter_mut().zip(&raw) {
                p.0.revents = r.revents;
            }
            Ok(n as usize)
        }
        Err(e) if e.kind() == io::ErrorKind::Interrupted => Ok(0),
        Err(e) => Err(e),
    }
}
