//! The register space: a built space walks back to what was laid out,
//! malformed chains are refused, and no byte string panics the walker or
//! the block views.

use janus_host::regs::{
    Counters, Doorbells, FunctionKindCode, FunctionLayout, FunctionShape, Identity, QueuePair,
    RegsError, TYPE_COUNTERS, TYPE_DOORBELLS, TYPE_IDENTITY, TYPE_QUEUE_PAIR, walk,
};
use janus_host::ring::Suppression;
use proptest::prelude::*;

fn shape(queue_pairs: u16) -> FunctionShape {
    FunctionShape {
        kind: FunctionKindCode::Virtual,
        vf_index: 7,
        port: 9,
        queue_pairs,
        ring_size: 256,
        suppression: Suppression::EventIdx,
    }
}

/// Reads every block of a space through the typed views (what a driver does).
fn read_all(space: &[u8]) -> usize {
    let mut n = 0;
    for block in walk(space) {
        let Ok(block) = block else { break };
        n += 1;
        let b = block.bytes;
        if let Ok(id) = Identity::new_checked(b) {
            let _ = (
                id.kind(),
                id.vf_index(),
                id.queue_pairs(),
                id.port(),
                id.region_len(),
            );
        }
        if let Ok(qp) = QueuePair::new_checked(b) {
            let _ = (qp.queue(), qp.ring_size(), qp.features(), qp.rx(), qp.tx());
        }
        if let Ok(c) = Counters::new_checked(b) {
            let _ = (c.count(), c.offset());
        }
        if let Ok(d) = Doorbells::new_checked(b) {
            let _ = d.count();
        }
    }
    n
}

#[test]
fn built_space_walks_back() {
    let layout = FunctionLayout::plan(shape(3)).unwrap();
    let space = layout.build_space().unwrap();
    let blocks: Vec<_> = walk(&space).collect::<Result<_, _>>().unwrap();
    let types: Vec<u32> = blocks.iter().map(|b| b.block_type()).collect();
    assert_eq!(
        types,
        [
            TYPE_IDENTITY,
            TYPE_QUEUE_PAIR,
            TYPE_QUEUE_PAIR,
            TYPE_QUEUE_PAIR,
            TYPE_COUNTERS,
            TYPE_DOORBELLS
        ]
    );
    assert!(blocks.iter().all(|b| b.version() == 1));
    let id = Identity::new_checked(blocks[0].bytes).unwrap();
    assert_eq!(id.kind(), Some(FunctionKindCode::Virtual));
    assert_eq!((id.vf_index(), id.port(), id.queue_pairs()), (7, 9, 3));
    assert_eq!(id.region_len(), layout.region_len);
    for (q, b) in blocks[1..4].iter().enumerate() {
        let qp = QueuePair::new_checked(b.bytes).unwrap();
        assert_eq!(usize::from(qp.queue()), q);
        assert_eq!(qp.ring_size(), 256);
        assert_eq!(qp.rx().desc, layout.queues[q].rx.desc);
        assert_eq!(qp.tx().used, layout.queues[q].tx.used);
        assert_eq!(layout.doorbell_slot(qp.rx().doorbell), Some(2 * q));
        assert_eq!(layout.doorbell_slot(qp.tx().doorbell), Some(2 * q + 1));
    }
    let c = Counters::new_checked(blocks[4].bytes).unwrap();
    assert_eq!((c.count(), c.offset()), (6, layout.counters));
    assert_eq!(Doorbells::new_checked(blocks[5].bytes).unwrap().count(), 6);
    assert!(QueuePair::new_checked(blocks[0].bytes).is_err());
}

/// Writes a little-endian u32 into a space.
fn set(space: &mut [u8], at: usize, v: u32) {
    space[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn loops_and_bad_pointers_are_refused() {
    let space = FunctionLayout::plan(shape(1))
        .unwrap()
        .build_space()
        .unwrap();
    let last = |s: &[u8]| walk(s).find_map(Result::err);

    let mut s = space.clone();
    set(&mut s, 8, 8); // the identity block points into itself
    assert!(matches!(
        last(&s),
        Some(RegsError::Loop { offset: 0, next: 8 })
    ));

    let mut s = space.clone();
    let second = 40;
    set(&mut s, second + 8, 0x10); // backwards to before the second block
    assert!(matches!(last(&s), Some(RegsError::Loop { .. })));

    let mut s = space.clone();
    set(&mut s, 8, 0x10_0000);
    assert!(matches!(last(&s), Some(RegsError::OutOfRange { .. })));

    let mut s = space.clone();
    set(&mut s, 12, 7);
    assert!(matches!(last(&s), Some(RegsError::BadLength { .. })));

    let mut s = space.clone();
    set(&mut s, 12, 0x1000);
    assert!(matches!(last(&s), Some(RegsError::Truncated { .. })));

    let mut s = space.clone();
    set(&mut s, 4, 2);
    assert!(matches!(
        Identity::new_checked(walk(&s).next().unwrap().unwrap().bytes),
        Err(RegsError::UnsupportedVersion { .. })
    ));
    assert_eq!(walk(&[]).count(), 1);
    assert!(walk(&[0; 8]).next().unwrap().is_err());
}

#[test]
fn plan_refuses_bad_shapes() {
    let mut s = shape(1);
    s.ring_size = 100;
    assert!(FunctionLayout::plan(s).is_err());
    assert!(FunctionLayout::plan(shape(0)).is_err());
    assert!(FunctionLayout::plan(shape(257)).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// Arbitrary bytes: the walk ends, visits each byte at most once.
    #[test]
    fn walker_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let n = read_all(&bytes);
        prop_assert!(n <= bytes.len() / 16);
    }

    /// A valid space with random bytes overwritten.
    #[test]
    fn mutated_space_never_panics(
        queues in 1u16..5,
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..20),
    ) {
        let mut space = FunctionLayout::plan(shape(queues)).unwrap().build_space().unwrap();
        for (at, v) in edits {
            let i = at % space.len();
            space[i] = v;
        }
        let n = read_all(&space);
        prop_assert!(n <= space.len() / 16);
    }
}
