//! The traffic recorder: the running pipeline's last ingress frames, in a
//! bounded ring, for the pipeline swap to replay (docs/firmware.md,
//! "Hot-swap"). Recording is a lock and a copy per frame; the ring never
//! grows past its capacity (the oldest frame makes room).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

/// Frames a ring keeps by default.
pub const DEFAULT_CAPACITY: usize = 256;

/// Frames longer than this are kept cut to it (a jumbo frame's headers
/// decide its fate; its payload does not).
pub const MAX_FRAME: usize = 2048;

/// A frame as it entered the pipeline: its ingress port and bytes.
pub type Frame = (u32, Vec<u8>);

/// A shared ring of the last `capacity` ingress frames (clones share it).
#[derive(Clone)]
pub struct Recorder {
    ring: Arc<Mutex<VecDeque<Frame>>>,
    capacity: usize,
}

impl Recorder {
    /// An empty ring keeping at most `capacity` frames (at least one).
    pub fn new(capacity: usize) -> Recorder {
        let capacity = capacity.max(1);
        Recorder {
            ring: Arc::new(Mutex::new(VecDeque::with_capacity(capacity))),
            capacity,
        }
    }

    /// Records a frame that entered the pipeline on `port`.
    pub fn record(&self, port: u32, frame: &[u8]) {
        let kept = &frame[..frame.len().min(MAX_FRAME)];
        let mut ring = self.ring.lock().unwrap_or_else(PoisonError::into_inner);
        if ring.len() == self.capacity {
            ring.pop_front();
        }
        ring.push_back((port, kept.to_vec()));
    }

    /// The recorded frames, oldest first.
    pub fn sample(&self) -> Vec<Frame> {
        let ring = self.ring.lock().unwrap_or_else(PoisonError::into_inner);
        ring.iter().cloned().collect()
    }

    /// How many frames it keeps at most.
    pub fn capacity(&self) -> usize {
        self.capacity
    }
}

impl Default for Recorder {
    fn default() -> Recorder {
        Recorder::new(DEFAULT_CAPACITY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_frames_in_order() {
        let r = Recorder::new(3);
        for i in 0..5u8 {
            r.record(u32::from(i), &[i]);
        }
        let sample = r.sample();
        assert_eq!(sample, vec![(2, vec![2]), (3, vec![3]), (4, vec![4])]);
    }

    #[test]
    fn cuts_long_frames() {
        let r = Recorder::new(1);
        r.record(7, &vec![0xAB; MAX_FRAME + 100]);
        assert_eq!(r.sample()[0].1.len(), MAX_FRAME);
    }
}
