//! A producer thread (driver) and a consumer thread (device) on one shared
//! region move a million chains; sequence numbers arrive in order, each
//! exactly once. Both threads give up at a deadline, so the test cannot hang.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use janus_host::ring::{
    Access, Buffer, Chain, Completion, Device, Driver, RingConfig, RingLayout, SharedRegion,
    Suppression,
};

const TOTAL: u64 = 1_000_000;
const DEADLINE: Duration = Duration::from_secs(120);

#[test]
fn two_threads_move_a_million_descriptors() {
    let layout = RingLayout::packed_at(256, 0);
    let region = Arc::new(SharedRegion::new(layout.end() as usize).unwrap());
    let config = RingConfig {
        layout,
        suppression: Suppression::EventIdx,
    };
    let mut driver = Driver::new(region.clone(), config).unwrap();
    let mut device = Device::new(region, config).unwrap();
    let start = Instant::now();
    let failed = Arc::new(AtomicBool::new(false));

    let dev_failed = failed.clone();
    let consumer = thread::spawn(move || -> Result<u64, String> {
        let mut chains = [Chain::default(); 32];
        let mut expect = 0u64;
        while expect < TOTAL {
            if start.elapsed() > DEADLINE || dev_failed.load(Ordering::Relaxed) {
                return Err(format!("device stopped at {expect}"));
            }
            let got = device.pop_batch(&mut chains).map_err(|e| e.to_string())?;
            if got == 0 {
                thread::yield_now();
                continue;
            }
            for c in &chains[..got] {
                let d = device
                    .chain(c)
                    .next()
                    .ok_or("empty chain")?
                    .map_err(|e| e.to_string())?;
                if d.addr != expect {
                    return Err(format!("popped {} where {expect} was due", d.addr));
                }
                device
                    .push_used(c.head, d.addr as u32)
                    .map_err(|e| e.to_string())?;
                expect += 1;
            }
            let _ = device.publish_used();
        }
        Ok(expect)
    });

    let mut next = 0u64;
    let mut reaped = 0u64;
    let mut done = [Completion::default(); 64];
    let result = (|| {
        while reaped < TOTAL {
            if start.elapsed() > DEADLINE {
                return Err(format!("driver stopped at {reaped}"));
            }
            let mut added = 0;
            while next < TOTAL && driver.free_descriptors() > 0 && added < 32 {
                let buf = Buffer {
                    addr: next,
                    len: 1500,
                    access: Access::DeviceReads,
                };
                driver.add(&[buf], next).map_err(|e| e.to_string())?;
                next += 1;
                added += 1;
            }
            let _ = driver.publish();
            let got = driver.reap(&mut done).map_err(|e| e.to_string())?;
            for c in &done[..got] {
                if c.token != reaped || c.written != reaped as u32 {
                    return Err(format!("reaped {c:?} where {reaped} was due"));
                }
                reaped += 1;
            }
            if got == 0 && added == 0 {
                thread::yield_now();
            }
        }
        Ok(())
    })();
    if result.is_err() {
        failed.store(true, Ordering::Relaxed);
    }
    let device_result = consumer.join().expect("device thread panicked");
    result.unwrap();
    assert_eq!(device_result.unwrap(), TOTAL);
    assert_eq!(driver.free_descriptors(), 256);
}
