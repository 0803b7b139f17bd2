//! The pipeline's clock: microseconds since the pipeline was loaded, read
//! once per packet pass (timestamps, idle-timeout hit times).
//!
//! `Instant::now` costs about 30 ns on the machines Janus is measured on
//! (the vDSO's `clock_gettime`), a seventh of a routed packet. Where the
//! kernel itself keeps time with the CPU's time-stamp counter (its
//! clocksource is `tsc`, so the counter is invariant and synchronised
//! across cores), the clock reads the counter (about 10 ns) and scales it
//! by a rate measured once per process against `Instant`; elsewhere it
//! reads `Instant`. Readings never go backwards.

use std::cell::Cell;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A monotonic microsecond clock starting at 0 when created.
#[derive(Debug)]
pub(crate) struct PacketClock {
    origin: Instant,
    /// The counter at `origin` and its ticks per microsecond, when the
    /// counter is used.
    tsc: Option<(u64, f64)>,
    /// The last reading, so that readings never decrease.
    last: Cell<u64>,
}

impl PacketClock {
    pub(crate) fn new() -> PacketClock {
        let rate = tsc_rate();
        let origin = Instant::now();
        PacketClock {
            origin,
            tsc: rate.map(|r| (read_tsc(), r)),
            last: Cell::new(0),
        }
    }

    /// Microseconds since the clock was created.
    #[inline]
    pub(crate) fn now_us(&self) -> u64 {
        let now = match self.tsc {
            Some((start, per_us)) => (read_tsc().wrapping_sub(start) as f64 / per_us) as u64,
            None => self.origin.elapsed().as_micros() as u64,
        };
        let now = now.max(self.last.get());
        self.last.set(now);
        now
    }
}

/// The counter's ticks per microsecond, measured once per process; `None`
/// where the kernel does not keep time with it (or off x86-64).
fn tsc_rate() -> Option<f64> {
    static RATE: OnceLock<Option<f64>> = OnceLock::new();
    *RATE.get_or_init(|| {
        let source = std::fs::read_to_string(
            "/sys/devices/system/clocksource/clocksource0/current_clocksource",
        )
        .ok()?;
        if source.trim() != "tsc" || !cfg!(target_arch = "x86_64") {
            return None;
        }
        let (t0, c0) = (Instant::now(), read_tsc());
        std::thread::sleep(Duration::from_millis(5));
        let (t1, c1) = (Instant::now(), read_tsc());
        let us = t1.duration_since(t0).as_secs_f64() * 1e6;
        let rate = c1.wrapping_sub(c0) as f64 / us;
        (rate.is_finite() && rate > 1.0).then_some(rate)
    })
}

/// The time-stamp counter (0 off x86-64, where it is never used).
#[inline]
fn read_tsc() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: `rdtsc` exists on every x86-64 processor and reads a
        // counter; it touches no memory and has no preconditions.
        unsafe { core::arch::x86_64::_rdtsc() }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_follow_real_time_and_never_decrease() {
        let clock = PacketClock::new();
        let started = Instant::now();
        let first = clock.now_us();
        let mut last = first;
        for _ in 0..10_000 {
            let now = clock.now_us();
            assert!(now >= last, "{now} < {last}");
            last = now;
        }
        std::thread::sleep(Duration::from_millis(20));
        let elapsed = clock.now_us() - first;
        let real = started.elapsed().as_micros() as u64;
        // 20 ms slept: the clock saw at least most of it and not much more
        // than really passed.
        assert!(elapsed >= 18_000, "{elapsed} µs");
        assert!(elapsed <= real + 2_000, "{elapsed} µs of {real}");
    }
}
