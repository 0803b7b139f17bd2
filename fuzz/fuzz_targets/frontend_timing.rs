//! The front end's time must grow linearly with its input: each input is
//! compiled (and its diagnostics rendered) as is, grown a few times and
//! grown many times, two ways — the input repeated end to end (more
//! declarations, more diagnostics, longer lines) and each character
//! repeated (longer identifiers, literals, runs, nesting) — and a finding
//! is an input whose time per byte grows more than [`FACTOR`] times
//! between the two sizes. Quadratic work shows up as a growth of
//! [`LARGE`] / [`SMALL`] (16) times; linear work as about 1.
//!
//! Timing is noisy (a shared machine, caches): every size is timed
//! [`RUNS`] times and the fastest run counts; only inputs whose large run
//! takes at least [`MIN_TIME`] are judged; a suspect is timed again,
//! [`CONFIRM_RUNS`] times each, before it counts as a finding. Programs
//! are compiled in the sandbox (no file is read), so times do not depend
//! on the file system.
#![no_main]

use janus_p4::driver::{IncludeAccess, Options, compile_source};
use libfuzzer_sys::fuzz_target;
use std::time::{Duration, Instant};

/// Inputs of these many bytes are judged; others are only compiled.
const JUDGED: std::ops::RangeInclusive<usize> = 8..=1024;
/// The small and the large growth of the input.
const SMALL: usize = 4;
const LARGE: usize = 64;
/// How much the time per byte may grow from the small to the large input.
const FACTOR: f64 = 4.0;
/// Large runs faster than this are not judged (too short to time).
const MIN_TIME: Duration = Duration::from_millis(3);
const RUNS: usize = 2;
const CONFIRM_RUNS: usize = 5;

fn options() -> Options {
    Options {
        include_access: IncludeAccess::BuiltinOnly,
        ..Options::default()
    }
}

/// The fastest of `runs` compilations (with rendering) of `text`.
fn fastest(text: &str, runs: usize) -> Duration {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            let c = compile_source("fuzz.p4", text.to_string(), &options());
            let _ = c.render(false);
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// `text` repeated end to end `k` times.
fn repeated(text: &str, k: usize) -> String {
    let mut s = text.to_string();
    if !s.ends_with('\n') {
        s.push('\n');
    }
    s.repeat(k)
}

/// `text` with every character repeated `k` times.
fn stretched(text: &str, k: usize) -> String {
    text.chars()
        .flat_map(|c| std::iter::repeat_n(c, k))
        .collect()
}

/// How much the time per byte grows from `small` to `large`, timed
/// `runs` times each; `None` if the large input is too fast to judge.
fn growth(small: &str, large: &str, runs: usize) -> Option<(f64, Duration, Duration)> {
    let t_small = fastest(small, runs);
    let t_large = fastest(large, runs);
    if t_large < MIN_TIME {
        return None;
    }
    let per_small = t_small.as_secs_f64() / small.len().max(1) as f64;
    let per_large = t_large.as_secs_f64() / large.len().max(1) as f64;
    Some((per_large / per_small.max(1e-12), t_small, t_large))
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    if !JUDGED.contains(&text.len()) {
        let c = compile_source("fuzz.p4", text, &options());
        let _ = c.render(false);
        return;
    }
    for (how, grow) in [
        ("repeated", repeated as fn(&str, usize) -> String),
        ("stretched", stretched),
    ] {
        let small = grow(&text, SMALL);
        let large = grow(&text, LARGE);
        let Some((g, _, _)) = growth(&small, &large, RUNS) else {
            continue;
        };
        if g <= FACTOR {
            continue;
        }
        // A suspect: time it again, more carefully.
        if let Some((g, t_small, t_large)) = growth(&small, &large, CONFIRM_RUNS)
            && g > FACTOR
        {
            panic!(
                "super-linear front end: the input {how} {SMALL} times ({} bytes) takes {t_small:?}, \
                 {LARGE} times ({} bytes) {t_large:?}: the time per byte grew {g:.1} times \
                 (allowed: {FACTOR})",
                small.len(),
                large.len()
            );
        }
    }
});
