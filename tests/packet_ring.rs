//! `janus_host::sys::packet_ring`: a veth pair, one mmap'd-ring port on
//! each end. Frames of every length go across in order and unchanged,
//! a port never receives what it sent, a VLAN tag the kernel strips is
//! put back, an oversized frame is refused and counted, and a port whose
//! interface is deleted reports it when polled. Root only (skipped, or
//! failed under `JANUS_REQUIRE_TOOLS=1`, without it); the link is deleted
//! even when the test fails; every wait is bounded.

mod common;

use common::netns::{Link, ip, must, root_and_tools};
use janus_host::sys::packet_ring::{RingConfig, RingPort};
use janus_host::sys::poll::{PollFd, wait};
use std::time::{Duration, Instant};

/// A local experimental EtherType (IEEE 802 local experimental 1), so
/// the kernel's own frames (IPv6 neighbour discovery) are told apart.
const ETHERTYPE: [u8; 2] = [0x88, 0xb5];
const LIMIT: Duration = Duration::from_secs(20);

fn frame(seq: u32, len: usize) -> Vec<u8> {
    let mut f = vec![0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1];
    f.extend_from_slice(&ETHERTYPE);
    f.extend_from_slice(&seq.to_be_bytes());
    while f.len() < len {
        f.push(f.len() as u8);
    }
    f
}

/// The test frames `port` receives within `limit`, until `n` arrived.
fn receive(port: &mut RingPort, n: usize, limit: Duration) -> Vec<Vec<u8>> {
    let until = Instant::now() + limit;
    let mut got = Vec::new();
    while got.len() < n && Instant::now() < until {
        let mut fds = [PollFd::readable(port.raw_fd())];
        wait(&mut fds, Duration::from_millis(50)).expect("poll");
        port.recv_batch(256, |f| {
            if f.len() >= 14 && (f[12..14] == ETHERTYPE || f[16..18] == ETHERTYPE) {
                got.push(f.to_vec());
            }
        });
    }
    got
}

#[test]
fn frames_cross_a_veth_pair_through_mmapped_rings() {
    if !root_and_tools("tests/packet_ring.rs", &["ip"]) {
        return;
    }
    let pid = std::process::id();
    let (a, b) = (format!("jra{pid}"), format!("jrb{pid}"));
    must(ip(&["link", "add", &a, "type", "veth", "peer", "name", &b]));
    let _link = Link(a.clone());
    for end in [&a, &b] {
        must(ip(&["link", "set", end, "up"]));
    }
    let config = RingConfig {
        frame_size: 2048,
        frames: 256,
    };
    let mut tx = RingPort::open(&a, config).expect("open a");
    let mut rx = RingPort::open(&b, config).expect("open b");

    // 1000 frames, 60 to 1514 bytes, in batches that wrap both rings.
    let sent: Vec<Vec<u8>> = (0..1000u32)
        .map(|i| frame(i, 60 + (i as usize * 37) % 1455))
        .collect();
    let mut got = Vec::new();
    for batch in sent.chunks(100) {
        for f in batch {
            let until = Instant::now() + LIMIT;
            while !tx.queue(f) {
                assert!(Instant::now() < until, "the TX ring stays full");
                tx.flush().expect("flush");
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        tx.flush().expect("flush");
        got.extend(receive(&mut rx, batch.len(), LIMIT));
    }
    assert_eq!(got.len(), sent.len(), "every frame arrives");
    assert!(got == sent, "in order and unchanged");
    // The sender never sees its own frames.
    assert!(receive(&mut tx, 1, Duration::from_millis(200)).is_empty());

    // A VLAN-tagged frame arrives with its tag, whether or not the kernel
    // took it out on the way.
    let mut tagged = vec![
        0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x81, 0x00, 0x20, 0x05,
    ];
    tagged.extend_from_slice(&ETHERTYPE);
    tagged.extend_from_slice(&[7; 50]);
    assert!(tx.queue(&tagged));
    tx.flush().expect("flush");
    assert_eq!(receive(&mut rx, 1, LIMIT), vec![tagged]);

    // Too long for a slot: refused and counted.
    assert!(!tx.queue(&vec![0; tx.max_frame() + 1]));
    assert_eq!(tx.stats().tx_full, 1);

    // The interface goes away: polling says so, receiving gives nothing.
    must(ip(&["link", "del", &a]));
    let until = Instant::now() + LIMIT;
    loop {
        let mut fds = [PollFd::readable(rx.raw_fd())];
        wait(&mut fds, Duration::from_millis(50)).expect("poll");
        if fds[0].is_closed() {
            break;
        }
        assert!(
            Instant::now() < until,
            "the deleted interface is never reported"
        );
    }
    assert_eq!(rx.recv_batch(16, |_| {}), 0);
}
