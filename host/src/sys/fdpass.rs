//! Passing descriptors between processes over a unix socket
//! (`SCM_RIGHTS`): the NIC hands a VF's memory file and event counters to
//! the shim with the handshake bytes.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;

use super::check_size;

/// Most descriptors one message carries (a vhost-user memory table has
/// up to 8).
pub const MAX_FDS: usize = 8;

/// Room for a control message of [`MAX_FDS`] descriptors (aligned for
/// `cmsghdr`).
#[repr(C, align(8))]
struct CmsgBuf([u8; 64]);

/// Sends `bytes` and `fds` in one message.
pub fn send(sock: &UnixStream, bytes: &[u8], fds: &[RawFd]) -> io::Result<()> {
    if fds.len() > MAX_FDS || bytes.is_empty() {
        return Err(io::ErrorKind::InvalidInput.into());
    }
    let mut cbuf = CmsgBuf([0; 64]);
    let fd_bytes = std::mem::size_of_val(fds) as u32;
    // SAFETY: CMSG_SPACE only computes a size.
    let space = unsafe { libc::CMSG_SPACE(fd_bytes) } as usize;
    let mut iov = libc::iovec {
        iov_base: bytes.as_ptr() as *mut libc::c_void,
        iov_len: bytes.len(),
    };
    // SAFETY: an all-zero msghdr is valid; the fields are set below.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    if !fds.is_empty() {
        msg.msg_control = cbuf.0.as_mut_ptr().cast();
        msg.msg_controllen = space as _;
        // SAFETY: `msg_control` points at `space` bytes (at most 64, the
        // buffer's size, for MAX_FDS descriptors), so the first header and
        // its data fit; the buffer is aligned for cmsghdr.
        unsafe {
            let cmsg = libc::CMSG_FIRSTHDR(&msg);
            (*cmsg).cmsg_level = libc::SOL_SOCKET;
            (*cmsg).cmsg_type = libc::SCM_RIGHTS;
            (*cmsg).cmsg_len = libc::CMSG_LEN(fd_bytes) as _;
            std::ptr::copy_nonoverlapping(
                fds.as_ptr(),
                libc::CMSG_DATA(cmsg).cast::<RawFd>(),
                fds.len(),
            );
        }
    }
    // SAFETY: `msg` points at live buffers for the call's duration.
    let sent = check_size(unsafe { libc::sendmsg(sock.as_raw_fd(), &msg, libc::MSG_NOSIGNAL) })?;
    if sent != bytes.len() {
        return Err(io::ErrorKind::WriteZero.into());
    }
    Ok(())
}

/// Receives one message into `bytes` with up to [`MAX_FDS`] descriptors;
/// returns the byte count and the descriptors (owned, close-on-exec).
pub fn recv(sock: &UnixStream, bytes: &mut [u8]) -> io::Result<(usize, Vec<OwnedFd>)> {
    let mut cbuf = CmsgBuf([0; 64]);
    let mut iov = libc::iovec {
        iov_base: bytes.as_mut_ptr().cast(),
        iov_len: bytes.len(),
    };
    // SAFETY: an all-zero msghdr is valid; the fields are set below.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = cbuf.0.as_mut_ptr().cast();
    msg.msg_controllen = cbuf.0.len() as _;
    // SAFETY: `msg` points at live buffers for the call's duration.
    let n =
        check_size(unsafe { libc::recvmsg(sock.as_raw_fd(), &mut msg, libc::MSG_CMSG_CLOEXEC) })?;
    let mut fds = Vec::new();
    // SAFETY: the kernel filled `msg_controllen` bytes of `cbuf` with
    // well-formed headers; CMSG_FIRSTHDR/NXTHDR stay inside them, and each
    // SCM_RIGHTS payload holds whole descriptors that are now ours.
    unsafe {
        let mut cmsg = libc::CMSG_FIRSTHDR(&msg);
        while !cmsg.is_null() {
            if (*cmsg).cmsg_level == libc::SOL_SOCKET && (*cmsg).cmsg_type == libc::SCM_RIGHTS {
                let data = libc::CMSG_DATA(cmsg).cast::<RawFd>();
                let payload = (*cmsg).cmsg_len as usize - libc::CMSG_LEN(0) as usize;
                for i in 0..payload / std::mem::size_of::<RawFd>() {
                    fds.push(OwnedFd::from_raw_fd(data.add(i).read_unaligned()));
                }
            }
            cmsg = libc::CMSG_NXTHDR(&msg, cmsg);
        }
    }
    if msg.msg_flags & libc::MSG_CTRUNC != 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "too many descriptors in one message",
        ));
    }
    Ok((n, fds))
}
