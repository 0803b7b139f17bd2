//! Notification suppression: with `EVENT_IDX`, kicks and interrupts happen
//! exactly when virtio says (the peer's event index lies among the indices
//! just published); with flags, exactly when the peer has not set its flag.
//! A peer that armed and found nothing pending is always woken by the next
//! publish.

use std::sync::Arc;

use janus_host::ring::{
    Access, Armed, Buffer, Chain, Completion, Device, Driver, Notify, RingConfig, RingLayout,
    SharedRegion, Suppression,
};
use proptest::prelude::*;

fn ring(size: u16, suppression: Suppression) -> (Driver, Device) {
    let layout = RingLayout::packed_at(size, 0);
    let region = Arc::new(SharedRegion::new(layout.end() as usize).unwrap());
    let config = RingConfig {
        layout,
        suppression,
    };
    (
        Driver::new(region.clone(), config).unwrap(),
        Device::new(region, config).unwrap(),
    )
}

const BUF: Buffer = Buffer {
    addr: 0x1000,
    len: 64,
    access: Access::DeviceWrites,
};

/// The spec's rule, stated directly: notify if `event` is one of the
/// indices `old, old+1, ..., new-1` (modulo 2^16).
fn crossed(event: u16, old: u16, new: u16) -> bool {
    (0..new.wrapping_sub(old)).any(|k| old.wrapping_add(k) == event)
}

#[derive(Debug, Clone)]
enum Step {
    /// Driver adds and publishes `n` chains.
    Send(usize),
    /// Device pops everything; with `arm`, it then re-arms kicks.
    Drain { arm: bool },
    /// Device completes and publishes `n` of its popped chains.
    Complete(usize),
    /// Driver reaps everything; with `arm`, it then re-arms interrupts.
    Reap { arm: bool },
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (1usize..20).prop_map(Step::Send),
        any::<bool>().prop_map(|arm| Step::Drain { arm }),
        (1usize..20).prop_map(Step::Complete),
        any::<bool>().prop_map(|arm| Step::Reap { arm }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn event_idx_notifies_exactly_when_crossed(steps in proptest::collection::vec(step(), 1..300)) {
        let (mut drv, mut dev) = ring(32, Suppression::EventIdx);
        // The model: indices published so far and the events each side armed.
        let (mut avail, mut used) = (0u16, 0u16);
        let (mut avail_event, mut used_event) = (0u16, 0u16);
        let (mut popped, mut reaped) = (0u16, 0u16);
        let mut chains = [Chain::default(); 32];
        let mut done = [Completion::default(); 32];
        let mut held: Vec<u16> = Vec::new();
        let mut device_idle = false;
        let mut driver_idle = false;
        for s in &steps {
            match *s {
                Step::Send(n) => {
                    let n = n.min(usize::from(drv.free_descriptors()));
                    for _ in 0..n {
                        drv.add(&[BUF], 0).unwrap();
                    }
                    let old = avail;
                    avail = avail.wrapping_add(n as u16);
                    let kick = drv.publish();
                    let want = n > 0 && crossed(avail_event, old, avail);
                    prop_assert_eq!(kick == Notify::Required, want);
                    if device_idle && n > 0 {
                        prop_assert_eq!(kick, Notify::Required, "lost kick");
                        device_idle = false;
                    }
                }
                Step::Drain { arm } => {
                    loop {
                        let got = dev.pop_batch(&mut chains).unwrap();
                        held.extend(chains[..got].iter().map(|c| c.head));
                        popped = popped.wrapping_add(got as u16);
                        if got == 0 { break; }
                    }
                    if arm {
                        avail_event = popped;
                        device_idle = dev.arm_kicks() == Armed::Idle;
                        prop_assert!(device_idle);
                    }
                }
                Step::Complete(n) => {
                    let n = n.min(held.len());
                    for head in held.drain(..n) {
                        dev.push_used(head, 1).unwrap();
                    }
                    let old = used;
                    used = used.wrapping_add(n as u16);
                    let irq = dev.publish_used();
                    let want = n > 0 && crossed(used_event, old, used);
                    prop_assert_eq!(irq == Notify::Required, want);
                    if driver_idle && n > 0 {
                        prop_assert_eq!(irq, Notify::Required, "lost interrupt");
                        driver_idle = false;
                    }
                }
                Step::Reap { arm } => {
                    loop {
                        let got = drv.reap(&mut done).unwrap();
                        reaped = reaped.wrapping_add(got as u16);
                        if got == 0 { break; }
                    }
                    if arm {
                        used_event = reaped;
                        driver_idle = drv.arm_interrupts() == Armed::Idle;
                        prop_assert!(driver_idle);
                    }
                }
            }
        }
    }
}

/// Flags mode: the driver kicks unless the device set `NO_NOTIFY`, the
/// device interrupts unless the driver set `NO_INTERRUPT`.
#[test]
fn flags_suppress_and_rearm() {
    let (mut drv, mut dev) = ring(8, Suppression::Flags);
    drv.add(&[BUF], 1).unwrap();
    assert_eq!(drv.publish(), Notify::Required);
    dev.suppress_kicks();
    drv.add(&[BUF], 2).unwrap();
    assert_eq!(drv.publish(), Notify::Suppressed);
    // Arming finds the two chains already there: poll before sleeping.
    assert_eq!(dev.arm_kicks(), Armed::WorkPending);
    let mut chains = [Chain::default(); 8];
    assert_eq!(dev.pop_batch(&mut chains).unwrap(), 2);
    assert_eq!(dev.arm_kicks(), Armed::Idle);
    drv.add(&[BUF], 3).unwrap();
    assert_eq!(drv.publish(), Notify::Required);

    drv.suppress_interrupts();
    dev.push_used(chains[0].head, 0).unwrap();
    assert_eq!(dev.publish_used(), Notify::Suppressed);
    assert_eq!(drv.arm_interrupts(), Armed::WorkPending);
    let mut done = [Completion::default(); 8];
    assert_eq!(drv.reap(&mut done).unwrap(), 1);
    assert_eq!(drv.arm_interrupts(), Armed::Idle);
    dev.push_used(chains[1].head, 0).unwrap();
    assert_eq!(dev.publish_used(), Notify::Required);
}

/// With `EVENT_IDX` a device that never re-arms is kicked once, when the
/// driver passes its last `avail_event` (0), and never again.
#[test]
fn event_idx_kicks_once_without_rearm() {
    let (mut drv, mut dev) = ring(8, Suppression::EventIdx);
    dev.suppress_kicks();
    let mut chains = [Chain::default(); 8];
    let mut kicks = 0;
    for i in 0..100u64 {
        drv.add(&[BUF], i).unwrap();
        if drv.publish() == Notify::Required {
            kicks += 1;
        }
        let got = dev.pop_batch(&mut chains).unwrap();
        for c in &chains[..got] {
            dev.push_used(c.head, 0).unwrap();
        }
        let _ = dev.publish_used();
        let mut done = [Completion::default(); 8];
        drv.reap(&mut done).unwrap();
    }
    assert_eq!(kicks, 1);
}

/// Publishing nothing never notifies.
#[test]
fn empty_publish_is_silent() {
    let (mut drv, mut dev) = ring(8, Suppression::Flags);
    assert_eq!(drv.publish(), Notify::Suppressed);
    assert_eq!(dev.publish_used(), Notify::Suppressed);
}
