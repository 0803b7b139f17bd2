//! Anonymous shared memory (`memfd_create(2)` + `mmap(2)`): the NIC
//! creates a VF's region, the shim maps the same file, and both see one
//! [`SharedRegion`].

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::ptr::NonNull;
use std::sync::Arc;

use super::check;
use crate::ring::{REGION_ALIGN, SharedRegion};

/// A shared mapping; unmapped when dropped.
struct Mapping {
    base: NonNull<u8>,
    len: usize,
}

// SAFETY: the mapping is only an address range; all access goes through
// the `SharedRegion` built over it (atomics only).
unsafe impl Send for Mapping {}
// SAFETY: as above.
unsafe impl Sync for Mapping {}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: `base`/`len` are exactly what mmap returned, and the
        // region over it is being dropped (it owns this mapping).
        unsafe { libc::munmap(self.base.as_ptr().cast(), self.len) };
    }
}

/// A new memory file of `len` bytes (zeroed), named `name` for
/// `/proc/PID/fd`, sealed against resizing: a peer holding it cannot
/// shrink it under this process's mapping (which would fault).
pub fn create(name: &str, len: usize) -> io::Result<OwnedFd> {
    let cname = std::ffi::CString::new(name).map_err(|_| io::ErrorKind::InvalidInput)?;
    // SAFETY: `cname` is a valid C string for the call's duration.
    let fd = check(unsafe {
        libc::memfd_create(cname.as_ptr(), libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING)
    })?;
    // SAFETY: a fresh descriptor owned by nobody else.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    let size = libc::off_t::try_from(len).map_err(|_| io::ErrorKind::InvalidInput)?;
    // SAFETY: plain call on a descriptor we own.
    check(unsafe { libc::ftruncate(fd.as_raw_fd(), size) })?;
    let seals = libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_SEAL;
    // SAFETY: plain call on a descriptor we own.
    check(unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_ADD_SEALS, seals) })?;
    Ok(fd)
}

/// Maps `len` bytes of the memory file `fd` read-write and shared, as a
/// region. Fails if the file is shorter than `len`.
pub fn map(fd: &OwnedFd, len: usize) -> io::Result<Arc<SharedRegion>> {
    // SAFETY: fstat writes into the zeroed struct we pass.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: `st` is a valid out-pointer.
    check(unsafe { libc::fstat(fd.as_raw_fd(), &mut st) })?;
    if (st.st_size as u64) < len as u64 || len == 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("memory file holds {} bytes, {len} needed", st.st_size),
        ));
    }
    // SAFETY: a fresh shared mapping chosen by the kernel; no existing
    // memory is affected.
    let ptr = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED,
            fd.as_raw_fd(),
            0,
        )
    };
    if ptr == libc::MAP_FAILED {
        return Err(super::last_error());
    }
    let base = NonNull::new(ptr.cast::<u8>()).ok_or(io::ErrorKind::Other)?;
    let mapping = Mapping { base, len };
    debug_assert!((base.as_ptr() as usize).is_multiple_of(REGION_ALIGN));
    // SAFETY: the mapping is valid for `len` bytes while `mapping` lives,
    // and the region owns it; both processes access it only through the
    // region's atomics.
    let region = unsafe { SharedRegion::from_owned(base, len, Box::new(mapping)) }
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    Ok(Arc::new(region))
}
