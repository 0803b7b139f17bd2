//! SIGINT and SIGTERM as a flag: the shim and the NIC process stop their
//! loops at the next wake-up (every loop waits with a bounded timeout) and
//! print their counters.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

use super::check;

/// Set by the handler; read by [`stop_requested`].
static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    // Only an atomic store: async-signal-safe.
    STOP.store(true, Ordering::Relaxed);
}

/// Installs the handler for SIGINT and SIGTERM.
pub fn install_stop_handler() -> io::Result<()> {
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: a zeroed sigaction is valid; the handler only stores an
        // atomic, which is async-signal-safe.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            libc::sigemptyset(&mut action.sa_mask);
            check(libc::sigaction(sig, &action, std::ptr::null_mut()))?;
        }
    }
    Ok(())
}

/// Whether SIGINT or SIGTERM arrived since [`install_stop_handler`].
pub fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed)
}
