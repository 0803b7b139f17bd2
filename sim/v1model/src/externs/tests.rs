use super::checksum::{
    Action, Cond, FastChecksum, RunSum, Summed, WINDOW, flag_checksum_error, sum_runs,
};
use super::hash::{
    CRC16, CRC16_CUSTOM, CRC32, CRC32_CUSTOM, CSUM16, IDENTITY, Running, XOR16, compute,
    run_in_place,
};
use super::*;
use janus_engine::externs::DataLayout;
use janus_p4::ir;
use janus_p4::types::TyId;
use janus_wire::checksum::{add_carry, fold_complement, internet_checksum, sum_words};
use janus_wire::crc;
use proptest::prelude::*;

/// A header's validity byte (none: always counted) and its fields as
/// (bit, width).
type Group = (Option<u32>, Vec<(u32, u32)>);

/// Every algorithm, and one Janus does not implement (4: CRC-16).
const ALGOS: [u64; 8] = [
    CRC32,
    CRC32_CUSTOM,
    CRC16,
    CRC16_CUSTOM,
    4,
    IDENTITY,
    CSUM16,
    XOR16,
];

/// Data from groups of (validity byte, fields as (bit, width)); a
/// field's type id is its width.
fn data(groups: &[Group]) -> DataLayout {
    let fixed = |bit, width| Place::Fixed {
        bit,
        ty: TyId(width),
    };
    let parts = groups
        .iter()
        .map(|(valid, fields)| {
            let parts = fields
                .iter()
                .map(|&(b, w)| ExternArg::Place {
                    place: fixed(b, w),
                    ty: TyId(w),
                })
                .collect();
            match valid {
                Some(v) => ExternArg::Guarded {
                    valid: fixed(v * 8, 8),
                    parts,
                },
                None => ExternArg::List(parts),
            }
        })
        .collect();
    DataLayout::of(&ExternArg::List(parts), &|t| Some(t.0)).expect("fixed data")
}

/// Groups of fields in a 64-byte arena whose first 4 bytes are
/// validity bytes: at whole bytes when `aligned`, else anywhere.
fn groups(aligned: bool) -> impl Strategy<Value = Vec<Group>> {
    let scale = if aligned { 8 } else { 1 };
    let field = (32 / scale..448 / scale, 0..64 / scale)
        .prop_map(move |(at, n): (u32, u32)| (at * scale, n * scale));
    prop::collection::vec(
        (
            prop::option::of(0u32..4),
            prop::collection::vec(field, 0..5),
        ),
        0..5,
    )
}

/// What the copying path gives: the data's bits, then `payload` from
/// the next byte.
fn copied(algo: u64, layout: &DataLayout, arena: &[u8], payload: &[u8], width: u32) -> u64 {
    let mut bytes = Vec::new();
    let bits = layout.append_to(arena, &mut bytes, 0);
    bytes.truncate(bits.div_ceil(8));
    bytes.extend_from_slice(payload);
    compute(algo, &bytes, bytes.len() * 8, width)
}

/// The algorithms as first written, one byte or byte pair at a time.
fn reference(algo: u64, bytes: &[u8]) -> u64 {
    let pairs = bytes
        .chunks(2)
        .map(|c| (c[0] as u64) << 8 | c.get(1).copied().unwrap_or(0) as u64);
    match algo {
        CRC32 | CRC32_CUSTOM => u64::from(crc::crc32(bytes)),
        CSUM16 => u64::from(fold_complement(pairs.sum())),
        XOR16 => pairs.fold(0, |a, w| a ^ w),
        IDENTITY => bytes.iter().take(8).fold(0, |a, b| a << 8 | *b as u64),
        _ => u64::from(crc::crc16_arc(bytes)),
    }
}

fn arena_with(arena: Vec<u8>, valid: &[u8]) -> Vec<u8> {
    let mut arena = arena;
    arena[..valid.len()].copy_from_slice(valid);
    arena
}

/// Groups of fields of whole 16-bit words from byte boundaries in a
/// 64-byte arena whose first 4 bytes are validity bytes.
fn word_groups() -> impl Strategy<Value = Vec<Group>> {
    let field = (4u32..56, 0u32..4).prop_map(|(at, n)| (at * 8, n * 16));
    prop::collection::vec(
        (
            prop::option::of(0u32..4),
            prop::collection::vec(field, 0..5),
        ),
        0..5,
    )
}

/// Groups of fields of whole 16-bit words from byte boundaries,
/// clustered in a region of an arena of 72 to 300 bytes, each group's
/// validity byte (if any) in the region too; the arena, and the region.
fn clustered_groups() -> impl Strategy<Value = (Vec<Group>, Vec<u8>, std::ops::Range<u32>)> {
    (WINDOW..300usize, 1u32..100, 0u32..300).prop_flat_map(|(len, spread, start)| {
        let len32 = len as u32;
        let start = start.min(len32 - 9);
        let end = (start + spread).min(len32 - 8);
        let region = start..end + 1;
        let byte = move |at: u32| (start + at).min(end);
        let field = (0..=spread, 0u32..4).prop_map(move |(at, n)| (byte(at) * 8, n * 16));
        let groups = prop::collection::vec(
            (
                prop::option::of((0..=spread).prop_map(byte)),
                prop::collection::vec(field, 0..3),
            ),
            0..4,
        );
        (
            groups,
            prop::collection::vec(any::<u8>(), len),
            Just(region),
        )
    })
}

proptest! {
    #[test]
    fn summing_words_in_place_gives_the_internet_checksum(
        groups in word_groups(),
        arena in prop::collection::vec(any::<u8>(), 64),
        valid in prop::collection::vec(0u8..2, 4),
        payload in prop::collection::vec(any::<u8>(), 0..19),
    ) {
        let arena = arena_with(arena, &valid);
        let layout = data(&groups);
        let want = copied(CSUM16, &layout, &arena, &payload, 16);
        let sum = sum_runs(layout.runs(), &arena).expect("in the arena");
        prop_assert_eq!(u64::from(fold_complement(add_carry(sum, sum_words(&payload)))), want);
    }

    #[test]
    fn window_checksums_run_as_the_runs(
        (groups, arena, region) in clustered_groups(),
        guards in prop::collection::vec(0u8..2, 4),
        cond in (0u8..3, any::<prop::sample::Index>()),
        out in (any::<prop::sample::Index>(), prop::sample::select(vec![16u32, 16, 8, 32]), 0u32..2),
        (update, payload) in (any::<bool>(), any::<bool>()),
        input in prop::collection::vec(any::<u8>(), 0..11),
    ) {
        let len = arena.len() as u32;
        let mut arena = arena;
        // The groups' validity bytes valid or not.
        for ((valid, _), g) in groups.iter().zip(&guards) {
            if let Some(v) = valid {
                arena[*v as usize] = *g;
            }
        }
        let byte_in = |i: &prop::sample::Index, last: u32| {
            region.start + i.index((region.end - region.start) as usize) as u32 % (last - region.start + 1)
        };
        let cond = match cond.0 {
            0 => Cond::Const(true),
            1 => Cond::Const(false),
            _ => Cond::Valid(byte_in(&cond.1, len - 2)),
        };
        let out = (byte_in(&out.0, len - 6) * 8 + out.2, out.1);
        let action = Action { update, payload };
        let layout = data(&groups);
        let fast = FastChecksum::of(layout.runs(), cond, out, action, len)
            .expect("whole words");
        let runs = RunSum { cond, out_bit: out.0, out_width: out.1, action };
        let error = crate::Field::new((len - 1) * 8, 1, len);
        let args = [ExternArg::List(Vec::new()), ExternArg::Data(layout.clone())];
        let mut want = arena.clone();
        let mut env = Env::new(&mut want);
        env.input = &input;
        prop_assert!(runs.run(&args, &error, &mut env));
        if let FastChecksum::Window(w) = fast {
            let mut env = Env::new(&mut arena);
            env.input = &input;
            let summed = match payload {
                true => w.run::<true>(&mut env),
                false => w.run::<false>(&mut env),
            };
            if summed == Summed::Mismatch {
                flag_checksum_error(&error, &mut env);
            }
            prop_assert_ne!(summed, Summed::Outside);
            prop_assert_eq!(&arena, &want);
        }
    }


    #[test]
    fn checksum_fields_read_and_write_as_bit_ranges(
        arena in prop::collection::vec(any::<u8>(), 1..12),
        bit in 0u32..100,
        width in prop::sample::select(vec![1u32, 7, 16, 17, 32, 64]),
        v in any::<u64>(),
    ) {
        let mut want = arena.clone();
        write_word(&mut want, bit as usize, width, v);
        let mut got = arena.clone();
        write_number(&mut got, bit, width, v);
        prop_assert_eq!(&got, &want);
        prop_assert_eq!(read_number(&arena, bit, width), read_word(&arena, bit as usize, width));
    }

    #[test]
    fn streaming_aligned_data_gives_the_copied_result(
        groups in groups(true),
        arena in prop::collection::vec(any::<u8>(), 64),
        valid in prop::collection::vec(0u8..2, 4),
        payload in prop::collection::vec(any::<u8>(), 0..9),
        with_payload in any::<bool>(),
        width in prop::sample::select(vec![8u32, 16, 32, 64]),
    ) {
        let arena = arena_with(arena, &valid);
        let layout = data(&groups);
        let payload = if with_payload { &payload[..] } else { &[] };
        let arg = ExternArg::Data(layout.clone());
        for algo in ALGOS {
            let run = run_in_place(algo, Some(&arg), &arena, payload);
            let want = copied(algo, &layout, &arena, payload, width);
            prop_assert_eq!(run.map(|r| r.finish(width)), Some(want), "algo {}", algo);
        }
    }

    #[test]
    fn any_layout_checksums_as_the_copied_data(
        groups in groups(false),
        arena in prop::collection::vec(any::<u8>(), 64),
        valid in prop::collection::vec(0u8..2, 4),
        payload in prop::collection::vec(any::<u8>(), 0..9),
    ) {
        let mut arena = arena_with(arena, &valid);
        let layout = data(&groups);
        let aligned = layout
            .runs()
            .iter()
            .all(|r| r.bit.is_multiple_of(8) && r.width.is_multiple_of(8));
        let arg = ExternArg::Data(layout.clone());
        let mut externs = V1Externs::new(&ir::Program::default(), Shared {
            std: StdMeta::default(),
            arena_bytes: 64,
        })
        .expect("no externs");
        for algo in ALGOS {
            let in_place = run_in_place(algo, Some(&arg), &arena, &payload);
            prop_assert_eq!(in_place.is_some(), aligned);
            let want = copied(algo, &layout, &arena, &payload, 16);
            let env = Env::new(&mut arena);
            let got = externs.checksum(algo, Some(&arg), &payload, 16, &env);
            prop_assert_eq!(got, want, "algo {}", algo);
        }
    }

    #[test]
    fn feeding_in_slices_gives_the_whole_result(
        bytes in prop::collection::vec(any::<u8>(), 0..40),
        cuts in prop::collection::vec(0usize..40, 0..6),
    ) {
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(bytes.len())).collect();
        cuts.sort_unstable();
        for algo in ALGOS {
            let mut run = Running::new(algo);
            let mut from = 0;
            for &to in cuts.iter().chain([bytes.len()].iter()) {
                run.feed(&bytes[from..to]);
                from = to;
            }
            prop_assert_eq!(run.finish(64), reference(algo, &bytes), "algo {}", algo);
            prop_assert_eq!(compute(algo, &bytes, bytes.len() * 8, 64), reference(algo, &bytes));
        }
        prop_assert_eq!(u64::from(internet_checksum(&bytes)), reference(CSUM16, &bytes));
    }
}

#[test]
fn an_ipv4_header_checksum_sums_in_a_window() {
    // A 20-byte header at byte 40, its validity byte after it, the
    // checksum field at its byte 10; the condition its validity.
    let layout = data(&[(Some(60), vec![(320, 160)])]);
    let action = Action {
        update: true,
        payload: false,
    };
    let fast = FastChecksum::of(layout.runs(), Cond::Valid(60), (400, 16), action, 200);
    let Some(FastChecksum::Window(w)) = fast else {
        panic!("not a window sum: {fast:?}");
    };
    assert_eq!(
        (w.len, w.cond, w.out),
        (3, Some(60 - w.base as u8), 50 - w.base as u8)
    );
    assert!(w.loads.iter().all(|l| l.valid.is_none()) && !w.guarded);
    // The three loads without tests sum the header: its checksum (the
    // field zero before) is written.
    let ip = [
        0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00, 0xc0, 0xa8, 0x00,
        0x01, 0xc0, 0xa8, 0x00, 0xc7,
    ];
    let mut arena = vec![0u8; 200];
    arena[40..60].copy_from_slice(&ip);
    arena[60] = 1;
    assert_eq!(w.run::<false>(&mut Env::new(&mut arena)), Summed::Done);
    assert_eq!(arena[50..52], [0xb8, 0x61]);
    // In an arena smaller than a window, or with an 8-bit output: by
    // runs.
    let small = FastChecksum::of(layout.runs(), Cond::Valid(60), (400, 16), action, 64);
    assert!(matches!(small, Some(FastChecksum::Runs(_))));
    let narrow = FastChecksum::of(layout.runs(), Cond::Valid(60), (400, 8), action, 200);
    assert!(matches!(narrow, Some(FastChecksum::Runs(_))));
}
