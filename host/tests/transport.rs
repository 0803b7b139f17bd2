//! The NIC's hub and two host ends over the real transport (memory file,
//! event counters and unix sockets, here in one process): frames cross
//! from VF 2 to VF 3 in order, a second shim on a VF is refused, frames
//! for a detached VF are dropped and counted, and a full transmit ring
//! pushes back instead of queueing. Every wait has a deadline.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use janus_host::transport::{
    HostEnd, Hub, HubConfig, HubCounters, Pipeline, Refusal, TransportError, socket_path,
};

/// Sends everything from port 2 to port 3 and from 3 to 2.
struct Swap;

impl Pipeline for Swap {
    fn process(&mut self, port: u32, frame: &[u8], out: &mut Vec<(u32, Vec<u8>)>) {
        out.push((if port == 2 { 3 } else { 2 }, frame.to_vec()));
    }
}

struct Nic {
    dir: std::path::PathBuf,
    stop: Arc<AtomicBool>,
    thread: Option<thread::JoinHandle<HubCounters>>,
}

impl Nic {
    fn start(name: &str) -> Nic {
        let dir =
            std::env::temp_dir().join(format!("janus-transport-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut hub = Hub::bind(HubConfig {
            dir: dir.clone(),
            ports: vec![2, 3],
            ring_size: 64,
            batch: 16,
        })
        .unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = thread::spawn(move || {
            hub.run(&mut Swap, &|| flag.load(Ordering::Relaxed))
                .unwrap();
            hub.counters()
        });
        Nic {
            dir,
            stop,
            thread: Some(thread),
        }
    }

    fn connect(&self, port: u32) -> Result<HostEnd, TransportError> {
        HostEnd::connect(&socket_path(&self.dir, port), port)
    }

    fn stop(mut self) -> HubCounters {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.take().unwrap().join().unwrap()
    }
}

impl Drop for Nic {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Receives on `end` until `want` frames arrived or 10 s passed.
fn receive(end: &mut HostEnd, want: usize) -> Vec<Vec<u8>> {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut got = Vec::new();
    while got.len() < want && Instant::now() < deadline {
        end.receive(64, |f| got.push(f.to_vec())).unwrap();
        end.reclaim().unwrap();
        thread::sleep(Duration::from_millis(1));
    }
    got
}

#[test]
fn frames_cross_between_vfs_in_order() {
    let nic = Nic::start("cross");
    let mut a = nic.connect(2).unwrap();
    let mut b = nic.connect(3).unwrap();
    let mut sent = 0u32;
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut got = Vec::new();
    while got.len() < 1000 && Instant::now() < deadline {
        while sent < 1000 && a.can_send() {
            let frame: Vec<u8> = (0..60 + sent % 1400).map(|i| (i + sent) as u8).collect();
            assert!(a.send(&frame).unwrap());
            sent += 1;
        }
        a.flush().unwrap();
        a.reclaim().unwrap();
        b.receive(64, |f| got.push(f.to_vec())).unwrap();
    }
    assert_eq!(got.len(), 1000, "frames lost");
    for (n, f) in got.iter().enumerate() {
        let n = n as u32;
        assert_eq!(f.len() as u32, 60 + n % 1400);
        assert!(
            f.iter()
                .enumerate()
                .all(|(i, &x)| x == (i as u32 + n) as u8)
        );
    }
    assert_eq!(b.nic_counters()[0], 1000, "VF 3's received-packets counter");
    assert_eq!(
        a.nic_counters()[2],
        1000,
        "VF 2's transmitted-packets counter"
    );
    // And back.
    assert!(
        b.send(b"reply from VF 3, padded to sixty bytes ............")
            .unwrap()
    );
    b.flush().unwrap();
    assert_eq!(receive(&mut a, 1).len(), 1);
    drop((a, b));
    let c = nic.stop();
    assert_eq!(c.from_vfs, 1001);
    assert_eq!(c.to_vfs, 1001);
}

#[test]
fn a_second_shim_is_refused_and_a_detached_vf_drops() {
    let nic = Nic::start("refuse");
    let mut a = nic.connect(2).unwrap();
    match nic.connect(2) {
        Err(TransportError::Refused {
            reason: Refusal::Busy,
            ..
        }) => {}
        other => panic!("expected a refusal, got {other:?}"),
    }
    // VF 3 has no shim: the frame is dropped and counted.
    assert!(a.send(&[0xab; 64]).unwrap());
    a.flush().unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while a.reclaim().unwrap() == 0 && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(1));
    }
    // A shim on VF 3 now attaches: the earlier frame is gone, new ones arrive.
    let mut b = nic.connect(3).unwrap();
    assert!(a.send(&[0xcd; 64]).unwrap());
    a.flush().unwrap();
    let got = receive(&mut b, 1);
    assert_eq!(got, vec![vec![0xcd; 64]]);
    drop((a, b));
    let c = nic.stop();
    assert_eq!(c.dropped_detached, 1);
    assert_eq!(c.attaches, 2);
}

#[test]
fn a_full_ring_pushes_back_and_a_full_receiver_drops() {
    let nic = Nic::start("full");
    let mut a = nic.connect(2).unwrap();
    let mut b = nic.connect(3).unwrap();
    // Without reclaiming, at most the ring's 64 buffers are accepted.
    let mut accepted = 0;
    for _ in 0..100 {
        if a.send(&[1; 64]).unwrap() {
            accepted += 1;
        }
    }
    assert_eq!(accepted, 64);
    assert_eq!(a.counters().tx_ring_full, 36);
    a.flush().unwrap();
    // B never reads: after 64 frames its receive ring is full, the rest drop.
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut sent = 64;
    while sent < 200 && Instant::now() < deadline {
        a.reclaim().unwrap();
        while sent < 200 && a.send(&[2; 64]).unwrap() {
            sent += 1;
        }
        a.flush().unwrap();
        thread::sleep(Duration::from_millis(1));
    }
    // Wait until the NIC handled all 200 (delivered or dropped).
    while b.nic_counters()[0] + b.nic_counters()[4] < 200 && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(1));
    }
    let got = receive(&mut b, 64);
    assert_eq!(got.len(), 64);
    assert!(b.nic_counters()[4] > 0, "received-dropped counter of VF 3");
    drop((a, b));
    let c = nic.stop();
    assert_eq!(c.to_vfs, 64);
    assert_eq!(c.dropped_ring_full, 200 - 64);
}
