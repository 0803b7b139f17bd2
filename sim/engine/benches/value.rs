//! Value-layer benchmarks: `add`, `read_bits` and `write_bits` at the
//! widths the per-packet path meets most (9, 32, 48 bits) and one inline
//! multi-word width (128 bits). Fields start mid-byte (bit 3) so the
//! unaligned path is what is measured.
//!
//! Run with `cargo bench -p janus-engine --bench value`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use janus_engine::value::Bits;
use std::hint::black_box;

const WIDTHS: [u32; 4] = [9, 32, 48, 128];

/// Bit offset of the benchmarked field: not byte-aligned.
const OFFSET: usize = 3;

fn buffer() -> Vec<u8> {
    (0..64u8)
        .map(|i| i.wrapping_mul(37).wrapping_add(11))
        .collect()
}

fn add(c: &mut Criterion) {
    let mut g = c.benchmark_group("add");
    for w in WIDTHS {
        let a = Bits::from_words_le(w, false, &[0x0123_4567_89ab_cdef, 0xfedc_ba98]);
        let b = Bits::from_words_le(w, false, &[0xffff_0000_ffff_0000, 0x1234]);
        g.bench_with_input(BenchmarkId::from_parameter(w), &w, |bench, _| {
            bench.iter(|| black_box(&a).add(black_box(&b)))
        });
    }
    g.finish();
}

fn read_bits(c: &mut Criterion) {
    let buf = buffer();
    let mut g = c.benchmark_group("read_bits");
    for w in WIDTHS {
        g.bench_with_input(BenchmarkId::from_parameter(w), &w, |bench, &w| {
            bench.iter(|| Bits::read_bits(black_box(&buf), black_box(OFFSET), black_box(w), false))
        });
    }
    g.finish();
}

fn write_bits(c: &mut Criterion) {
    let mut buf = buffer();
    let mut g = c.benchmark_group("write_bits");
    for w in WIDTHS {
        let v = Bits::from_words_le(w, false, &[0x0123_4567_89ab_cdef, 0xfedc_ba98]);
        g.bench_with_input(BenchmarkId::from_parameter(w), &w, |bench, _| {
            bench.iter(|| black_box(&v).write_bits(black_box(&mut buf), black_box(OFFSET)))
        });
    }
    g.finish();
}

criterion_group!(benches, add, read_bits, write_bits);
criterion_main!(benches);
