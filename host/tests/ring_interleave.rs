//! Property tests of the split ring: random interleavings of driver and
//! device operations, random batch sizes, many wrap-arounds of the ring and
//! of the 16-bit indices. Every chain added is popped exactly once, in order,
//! with its buffers intact, and completed exactly once.

use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;

use janus_host::ring::{
    Access, Buffer, Chain, Completion, Device, Driver, RingConfig, RingLayout, SharedRegion,
    Suppression,
};
use proptest::prelude::*;

/// One step of the interleaving.
#[derive(Debug, Clone)]
enum Op {
    /// Driver adds `n` chains of `len` buffers each.
    Add { n: usize, len: usize },
    /// Driver publishes its pending chains.
    Publish,
    /// Device pops up to `n` chains in one batch.
    Pop { n: usize },
    /// Device completes the in-flight chain at position `pick` (mod count),
    /// `n` times: completions may come out of order.
    Push { n: usize, pick: usize },
    /// Device publishes its completions.
    PublishUsed,
    /// Driver reaps up to `n` completions.
    Reap { n: usize },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (1usize..40, 1usize..4).prop_map(|(n, len)| Op::Add { n, len }),
        2 => Just(Op::Publish),
        3 => (1usize..40).prop_map(|n| Op::Pop { n }),
        3 => (1usize..40, any::<usize>()).prop_map(|(n, pick)| Op::Push { n, pick }),
        2 => Just(Op::PublishUsed),
        3 => (1usize..40).prop_map(|n| Op::Reap { n }),
    ]
}

/// Both ends of one ring plus the test's model of what must happen.
struct Harness {
    driver: Driver,
    device: Device,
    /// Next token the driver attaches.
    next_token: u64,
    /// Tokens added, not yet published.
    unpublished: u64,
    /// Next token the device must pop.
    next_pop: u64,
    /// Popped chains not yet completed: (head, token).
    in_flight: Vec<(u16, u64)>,
    /// Tokens completed by the device and not yet reaped.
    completed: BTreeSet<u64>,
    /// Tokens reaped.
    reaped: BTreeSet<u64>,
    chains: [Chain; 64],
    done: [Completion; 64],
}

/// The address of buffer `i` of the chain carrying `token`.
fn addr(token: u64, i: usize) -> u64 {
    (token << 8) | i as u64
}

impl Harness {
    fn new(size: u16) -> Self {
        let layout = RingLayout::packed_at(size, 0);
        let region = Arc::new(SharedRegion::new(layout.end() as usize).unwrap());
        let config = RingConfig {
            layout,
            suppression: Suppression::EventIdx,
        };
        Self {
            driver: Driver::new(region.clone(), config).unwrap(),
            device: Device::new(region, config).unwrap(),
            next_token: 0,
            unpublished: 0,
            next_pop: 0,
            in_flight: Vec::new(),
            completed: BTreeSet::new(),
            reaped: BTreeSet::new(),
            chains: [Chain::default(); 64],
            done: [Completion::default(); 64],
        }
    }

    /// Fast-forwards `n` full round trips (to bring the indices near 2^16).
    fn warm_up(&mut self, n: u32) {
        for _ in 0..n {
            self.apply(&Op::Add { n: 1, len: 1 });
            self.apply(&Op::Publish);
            self.apply(&Op::Pop { n: 1 });
            self.apply(&Op::Push { n: 1, pick: 0 });
            self.apply(&Op::PublishUsed);
            self.apply(&Op::Reap { n: 1 });
        }
    }

    fn apply(&mut self, op: &Op) {
        match *op {
            Op::Add { n, len } => {
                for _ in 0..n {
                    let t = self.next_token;
                    let bufs: Vec<Buffer> = (0..len)
                        .map(|i| Buffer {
                            addr: addr(t, i),
                            len: len as u32,
                            access: if i % 2 == 0 {
                                Access::DeviceReads
                            } else {
                                Access::DeviceWrites
                            },
                        })
                        .collect();
                    let free = self.driver.free_descriptors();
                    match self.driver.add(&bufs, t) {
                        Ok(()) => {
                            self.next_token += 1;
                            self.unpublished += 1;
                        }
                        Err(_) => {
                            assert!(usize::from(free) < len, "add refused with {free} free");
                            break;
                        }
                    }
                }
            }
            Op::Publish => {
                let _ = self.driver.publish();
                self.unpublished = 0;
            }
            Op::Pop { n } => {
                let got = self.device.pop_batch(&mut self.chains[..n]).unwrap();
                let visible = self.next_token - self.unpublished - self.next_pop;
                assert_eq!(
                    got as u64,
                    visible.min(n as u64),
                    "pop saw unpublished or lost chains"
                );
                for c in &self.chains[..got] {
                    let t = self.next_pop;
                    let descs: Vec<_> = self.device.chain(c).map(Result::unwrap).collect();
                    assert_eq!(descs.len(), usize::from(c.descriptors));
                    for (i, d) in descs.iter().enumerate() {
                        assert_eq!(d.addr, addr(t, i), "chain out of order or corrupted");
                        assert_eq!(d.len as usize, descs.len());
                        let want = if i % 2 == 0 {
                            Access::DeviceReads
                        } else {
                            Access::DeviceWrites
                        };
                        assert_eq!(d.access, want);
                    }
                    self.in_flight.push((c.head, t));
                    self.next_pop += 1;
                }
            }
            Op::Push { n, pick } => {
                for _ in 0..n {
                    if self.in_flight.is_empty() {
                        break;
                    }
                    let (head, token) = self.in_flight.swap_remove(pick % self.in_flight.len());
                    self.device.push_used(head, token as u32).unwrap();
                    self.completed.insert(token);
                }
            }
            Op::PublishUsed => {
                let _ = self.device.publish_used();
            }
            Op::Reap { n } => {
                let got = self.driver.reap(&mut self.done[..n]).unwrap();
                for c in &self.done[..got] {
                    assert_eq!(
                        c.written, c.token as u32,
                        "completion carries another chain's length"
                    );
                    assert!(
                        self.completed.contains(&c.token),
                        "reaped a chain twice or never completed"
                    );
                    assert!(
                        self.reaped.insert(c.token),
                        "token {} reaped twice",
                        c.token
                    );
                }
            }
        }
    }

    /// Drains everything and checks that every chain was delivered once.
    fn finish(&mut self) {
        self.apply(&Op::Publish);
        for _ in 0..10_000 {
            if self.reaped.len() as u64 == self.next_token {
                break;
            }
            self.apply(&Op::Pop { n: 64 });
            self.apply(&Op::Push { n: 64, pick: 0 });
            self.apply(&Op::PublishUsed);
            self.apply(&Op::Reap { n: 64 });
        }
        assert_eq!(
            self.next_pop, self.next_token,
            "chains lost before the device"
        );
        let all: BTreeSet<u64> = (0..self.next_token).collect();
        assert_eq!(self.reaped, all, "chains lost or duplicated");
        assert_eq!(
            self.driver.free_descriptors(),
            self.driver.size(),
            "descriptors leaked"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random interleavings over small rings: many ring wrap-arounds.
    #[test]
    fn interleavings_deliver_each_chain_once(
        size_log in 0u32..6,
        ops in proptest::collection::vec(op(), 1..400),
    ) {
        let mut h = Harness::new(1 << size_log);
        for op in &ops {
            h.apply(op);
        }
        h.finish();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// The same, started just before the 16-bit indices overflow.
    #[test]
    fn interleavings_across_index_overflow(
        warm in 65_500u32..65_536,
        ops in proptest::collection::vec(op(), 100..400),
    ) {
        let mut h = Harness::new(16);
        h.warm_up(warm);
        for op in &ops {
            h.apply(op);
        }
        h.finish();
        h.warm_up(40);
        h.finish();
        prop_assert!(h.next_token > 65_536);
    }
}

/// A batch of 32 makes one index update: the device sees none of it before
/// the publish and all of it after.
#[test]
fn batch_is_published_at_once() {
    let mut h = Harness::new(64);
    h.apply(&Op::Add { n: 32, len: 1 });
    assert_eq!(h.driver.pending(), 32);
    assert_eq!(h.device.pop_batch(&mut h.chains).unwrap(), 0);
    let _ = h.driver.publish();
    assert_eq!(h.device.pop_batch(&mut h.chains).unwrap(), 32);
}

/// Completions pushed in pop order are reaped in that order.
#[test]
fn in_order_completions_reap_in_order() {
    let mut h = Harness::new(16);
    let mut order = VecDeque::new();
    for round in 0..100u64 {
        h.apply(&Op::Add { n: 5, len: 2 });
        h.apply(&Op::Publish);
        h.apply(&Op::Pop { n: 5 });
        for &(head, token) in &h.in_flight {
            h.device.push_used(head, token as u32).unwrap();
            order.push_back(token);
        }
        h.completed.extend(h.in_flight.drain(..).map(|(_, t)| t));
        let _ = h.device.publish_used();
        let got = h.driver.reap(&mut h.done).unwrap();
        assert_eq!(got, 5, "round {round}");
        for c in &h.done[..got] {
            assert_eq!(Some(c.token), order.pop_front());
        }
    }
}
