//! Isolation of virtual functions (negative tests): a VF's registers and
//! queue addresses stay inside its own space and region, out-of-range
//! queues and doorbells are refused, one VF's traffic never reaches
//! another, and the crate has no path to the control plane or firmware.

use janus_host::function::{
    Counter, Direction, FunctionError, FunctionKind, HostConfig, HostInterface, MAX_VFS,
    QueueConfig, VfIndex,
};
use janus_host::regs::{Counters, Doorbells, FunctionKindCode, Identity, QueuePair, walk};
use janus_host::ring::{Access, Buffer, Chain, RingLayout, Suppression};

fn host(vfs: u16) -> HostInterface {
    let queues = QueueConfig {
        queue_pairs: 2,
        ring_size: 64,
        suppression: Suppression::EventIdx,
    };
    HostInterface::new(HostConfig {
        vfs,
        pf_queues: queues,
        vf_queues: queues,
    })
    .unwrap()
}

#[test]
fn vf_register_walk_stays_inside_its_own_region() {
    let mut nic = host(4);
    for i in 0..4 {
        let vf = nic.vf(i).unwrap().vf_handle().unwrap();
        let space = vf.registers();
        let region = vf.region_len() as u64;
        let blocks: Vec<_> = walk(space).collect::<Result<_, _>>().unwrap();
        let mut doorbells = Vec::new();
        let mut queues = 0;
        for b in &blocks {
            assert!(b.offset + b.bytes.len() <= space.len());
            if let Ok(id) = Identity::new_checked(b.bytes) {
                assert_eq!(id.kind(), Some(FunctionKindCode::Virtual));
                assert_eq!(id.vf_index(), i);
                assert_eq!(id.port(), janus_nic::ports::FIRST_VF + u32::from(i));
                assert_eq!(id.region_len(), region);
            }
            if let Ok(qp) = QueuePair::new_checked(b.bytes) {
                queues += 1;
                let size = qp.ring_size();
                for r in [qp.rx(), qp.tx()] {
                    assert!(r.desc + RingLayout::desc_bytes(size) <= region);
                    assert!(r.avail + RingLayout::avail_bytes(size) <= region);
                    assert!(r.used + RingLayout::used_bytes(size) <= region);
                    doorbells.push(r.doorbell);
                }
            }
            if let Ok(c) = Counters::new_checked(b.bytes) {
                assert!(c.offset() + 8 * u64::from(c.count()) <= region);
            }
            if let Ok(d) = Doorbells::new_checked(b.bytes) {
                let first = (b.offset + 24) as u32;
                let end = first + 4 * d.count();
                assert!(end as usize <= b.offset + b.bytes.len());
                for db in &doorbells {
                    assert!(
                        (first..end).contains(db),
                        "doorbell {db:#x} outside the doorbells block"
                    );
                }
            }
        }
        assert_eq!(queues, 2);
        // Every doorbell the VF found is writable; nothing else is.
        for db in &doorbells {
            vf.write_register(*db, 1).unwrap();
        }
        for offset in (0..space.len() as u32 + 64).filter(|o| !doorbells.contains(o)) {
            assert_eq!(
                vf.write_register(offset, 1),
                Err(FunctionError::NotADoorbell(offset))
            );
        }
        assert!(vf.write_register(u32::MAX, 1).is_err());
    }
}

#[test]
fn out_of_range_queues_and_doorbells_are_refused() {
    let mut nic = host(1);
    let mut vf = nic.vf(0).unwrap().vf_handle().unwrap();
    assert_eq!(
        vf.driver(2, Direction::Tx).unwrap_err(),
        FunctionError::NoSuchQueue { pair: 2, pairs: 2 }
    );
    assert!(vf.driver(u16::MAX, Direction::Rx).is_err());
    assert!(vf.ring_doorbell(2, Direction::Rx, 0).is_err());
    vf.driver(1, Direction::Tx).unwrap();
    assert_eq!(
        vf.driver(1, Direction::Tx).unwrap_err(),
        FunctionError::AlreadyTaken("driver end")
    );
    // The handle itself is handed out once, and never for the PF.
    assert!(nic.vf(0).unwrap().vf_handle().is_err());
    assert_eq!(nic.pf().vf_handle().unwrap_err(), FunctionError::NotVirtual);
    assert!(nic.vf(1).is_err());
    assert!(VfIndex::new(MAX_VFS).is_err());
    assert!(
        HostInterface::new(HostConfig {
            vfs: MAX_VFS + 1,
            pf_queues: QueueConfig {
                queue_pairs: 1,
                ring_size: 8,
                suppression: Suppression::Flags
            },
            vf_queues: QueueConfig {
                queue_pairs: 1,
                ring_size: 8,
                suppression: Suppression::Flags
            },
        })
        .is_err()
    );
    assert_eq!(nic.pf().kind(), FunctionKind::Physical);
}

#[test]
fn one_vfs_traffic_never_reaches_another() {
    let mut nic = host(2);
    let mut vf0 = nic.vf(0).unwrap().vf_handle().unwrap();
    let mut tx0 = vf0.driver(0, Direction::Tx).unwrap();
    let mut dev1 = nic.vf(1).unwrap().device(0, Direction::Tx).unwrap();
    let mut dev0 = nic.vf(0).unwrap().device(0, Direction::Tx).unwrap();
    let buf = Buffer {
        addr: 0xdead,
        len: 60,
        access: Access::DeviceReads,
    };
    tx0.add(&[buf], 1).unwrap();
    let _ = tx0.publish();
    vf0.ring_doorbell(0, Direction::Tx, 1).unwrap();
    let mut chains = [Chain::default(); 4];
    assert_eq!(dev1.pop_batch(&mut chains).unwrap(), 0);
    assert_eq!(
        nic.vf(1).unwrap().take_doorbell(0, Direction::Tx).unwrap(),
        None
    );
    assert_eq!(dev0.pop_batch(&mut chains).unwrap(), 1);
    assert_eq!(
        nic.vf(0).unwrap().take_doorbell(0, Direction::Tx).unwrap(),
        Some(1)
    );
    assert_eq!(
        nic.vf(0).unwrap().take_doorbell(0, Direction::Tx).unwrap(),
        None
    );
    // Counters are per function.
    nic.vf(0).unwrap().count(Counter::TxPackets, 1).unwrap();
    nic.vf(0).unwrap().count(Counter::TxBytes, 60).unwrap();
    assert_eq!(vf0.counter(Counter::TxPackets).unwrap(), 1);
    assert_eq!(vf0.counter(Counter::TxBytes).unwrap(), 60);
    let vf1 = nic.vf(1).unwrap().vf_handle().unwrap();
    assert_eq!(vf1.counter(Counter::TxPackets).unwrap(), 0);
}

/// The crate's manifest names neither the control plane nor the firmware,
/// and its one Janus dependency (the port map) depends only on janus-wire,
/// which has no dependencies at all.
#[test]
fn no_path_to_control_plane_or_firmware() {
    let manifest = include_str!("../Cargo.toml");
    let deps = manifest.split("[dependencies]").nth(1).unwrap();
    for forbidden in [
        "janus-ctrl",
        "janus-firmware",
        "janus-v1model",
        "janus-engine",
    ] {
        assert!(
            !deps.contains(forbidden),
            "janus-host depends on {forbidden}"
        );
    }
    let nic = include_str!("../../sim/nic/Cargo.toml");
    let nic_deps = nic.split("[dependencies]").nth(1).unwrap();
    let nic_deps = nic_deps.split("[dev-dependencies]").next().unwrap();
    let extra: Vec<&str> = nic_deps
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && *l != "janus-wire.workspace = true")
        .collect();
    assert!(extra.is_empty(), "janus-nic gained dependencies: {extra:?}");
    let wire = include_str!("../../sim/wire/Cargo.toml");
    assert!(
        !wire.contains("[dependencies]"),
        "janus-wire gained dependencies"
    );
}
