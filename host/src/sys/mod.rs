//! The operating-system calls the transport and the shim need, one module
//! per concern; every `unsafe` block of the crate outside `ring` is here.
//! Linux only.

pub mod eventfd;
pub mod fdpass;
pub mod iface;
pub mod memfd;
pub mod packet_ring;
pub mod poll;
pub mod signal;

use std::io;

/// The `errno` of the last failed call as an [`io::Error`].
pub(crate) fn last_error() -> io::Error {
    io::Error::last_os_error()
}

/// Turns a C return value (negative on error) into a result.
pub(crate) fn check(ret: libc::c_int) -> io::Result<libc::c_int> {
    if ret < 0 { Err(last_error()) } else { Ok(ret) }
}

/// As [`check`], for calls returning a byte count.
pub(crate) fn check_size(ret: libc::ssize_t) -> io::Result<usize> {
    if ret < 0 {
        Err(last_error())
    } else {
        Ok(ret as usize)
    }
}
