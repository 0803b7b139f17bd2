//! Multi-word arithmetic on little-endian `u64` slices, used for values wider
//! than 64 bits. Results are written into a caller-provided slice and are
//! not normalised (the caller masks the top word). Nothing here allocates
//! for operands of up to four words.

use super::INLINE_WORDS;
use std::cmp::Ordering;

/// `r = a + b` modulo 2^(64 r.len()); all slices have the same length.
pub(super) fn add(r: &mut [u64], a: &[u64], b: &[u64]) {
    let mut carry = false;
    for ((r, &a), &b) in r.iter_mut().zip(a).zip(b) {
        let (s, c1) = a.overflowing_add(b);
        let (s, c2) = s.overflowing_add(carry as u64);
        *r = s;
        carry = c1 | c2;
    }
}

/// `r = a - b` modulo 2^(64 r.len()); all slices have the same length.
pub(super) fn sub(r: &mut [u64], a: &[u64], b: &[u64]) {
    let mut borrow = false;
    for ((r, &a), &b) in r.iter_mut().zip(a).zip(b) {
        let (d, b1) = a.overflowing_sub(b);
        let (d, b2) = d.overflowing_sub(borrow as u64);
        *r = d;
        borrow = b1 | b2;
    }
}

/// `r = a * b` truncated to `r.len()` words (schoolbook, skipping the
/// partial products that fall off the top); `r` starts zeroed.
pub(super) fn mul(r: &mut [u64], a: &[u64], b: &[u64]) {
    let n = r.len();
    for (i, &ai) in a.iter().enumerate().take(n) {
        if ai == 0 {
            continue;
        }
        let mut carry = 0u64;
        for (j, &bj) in b.iter().enumerate().take(n - i) {
            let t = u128::from(ai) * u128::from(bj) + u128::from(r[i + j]) + u128::from(carry);
            r[i + j] = t as u64;
            carry = (t >> 64) as u64;
        }
    }
}

/// Unsigned comparison of two slices of the same length.
pub(super) fn cmp(a: &[u64], b: &[u64]) -> Ordering {
    a.iter().rev().cmp(b.iter().rev())
}

/// `r = a >> shift` (logical), reading words of `a` past its end as zero;
/// `r` may be shorter or longer than `a`.
pub(super) fn extract(r: &mut [u64], a: &[u64], shift: usize) {
    let (ws, bs) = (shift / 64, (shift % 64) as u32);
    let word = |k: usize| a.get(k).copied().unwrap_or(0);
    for (i, r) in r.iter_mut().enumerate() {
        let Some(k) = i.checked_add(ws) else {
            *r = 0;
            continue;
        };
        let high = if bs == 0 {
            0
        } else {
            k.checked_add(1).map_or(0, word) << (64 - bs)
        };
        *r = (word(k) >> bs) | high;
    }
}

/// `r |= a << shift`, truncated to `r.len()` words.
pub(super) fn or_shifted(r: &mut [u64], a: &[u64], shift: usize) {
    let (ws, bs) = (shift / 64, (shift % 64) as u32);
    for (i, &w) in a.iter().enumerate() {
        let k = i + ws;
        if k >= r.len() {
            break;
        }
        r[k] |= w << bs;
        if bs != 0 && k + 1 < r.len() {
            r[k + 1] |= w >> (64 - bs);
        }
    }
}

/// Number of words up to and including the most significant non-zero one.
fn significant_len(a: &[u64]) -> usize {
    a.iter().rposition(|&w| w != 0).map_or(0, |i| i + 1)
}

/// Writes `a / b` (or `a % b` if `rem`) into `out`; all slices have the same
/// length and `b` is not zero. Knuth's algorithm D (TAOCP 4.3.1) with
/// 64-bit digits; short division when `b` is one word.
pub(super) fn div_rem(out: &mut [u64], a: &[u64], b: &[u64], rem: bool) {
    out.fill(0);
    let n = significant_len(b);
    let m = significant_len(a);
    if n == 0 {
        return; // Division by zero: the caller defines the result (zero).
    }
    if m < n {
        if rem {
            out[..m].copy_from_slice(&a[..m]);
        }
        return;
    }
    if n == 1 {
        short_div_rem(out, &a[..m], b[0], rem);
        return;
    }
    let mut stack = [0u64; 2 * INLINE_WORDS + 1];
    let mut heap = Vec::new();
    let scratch = if m + 1 + n <= stack.len() {
        &mut stack[..m + 1 + n]
    } else {
        heap.resize(m + 1 + n, 0);
        &mut heap[..]
    };
    let (un, vn) = scratch.split_at_mut(m + 1);
    knuth_d(out, un, vn, &a[..m], &b[..n], rem);
}

/// Division by a single non-zero word.
fn short_div_rem(out: &mut [u64], a: &[u64], d: u64, rem: bool) {
    let d = u128::from(d);
    let mut r = 0u128;
    for (i, &w) in a.iter().enumerate().rev() {
        let cur = (r << 64) | u128::from(w);
        if !rem {
            out[i] = (cur / d) as u64;
        }
        r = cur % d;
    }
    if rem {
        out[0] = r as u64;
    }
}

/// `dst = src << s` for `s < 64`, `dst` one word longer than `src` or the
/// same length (then the bits shifted out of the top are dropped).
fn shl_into(dst: &mut [u64], src: &[u64], s: u32) {
    let mut carry = 0u64;
    for (d, &w) in dst.iter_mut().zip(src) {
        *d = (w << s) | carry;
        carry = if s == 0 { 0 } else { w >> (64 - s) };
    }
    if let Some(top) = dst.get_mut(src.len()) {
        *top = carry;
    }
}

/// Algorithm D proper: `a` has `m >= n` significant words, `b` has `n >= 2`
/// with a non-zero top word; `un` (m + 1 words) and `vn` (n words) are
/// scratch space.
fn knuth_d(out: &mut [u64], un: &mut [u64], vn: &mut [u64], a: &[u64], b: &[u64], rem: bool) {
    let (m, n) = (a.len(), b.len());
    // D1: normalise so the divisor's top bit is set.
    let s = b[n - 1].leading_zeros();
    shl_into(vn, b, s);
    shl_into(un, a, s);
    let (v1, v2) = (u128::from(vn[n - 1]), u128::from(vn[n - 2]));
    for j in (0..=m - n).rev() {
        // D3: estimate the quotient digit from the top two dividend words.
        let num = (u128::from(un[j + n]) << 64) | u128::from(un[j + n - 1]);
        let (mut qhat, mut rhat) = (num / v1, num % v1);
        while qhat > u128::from(u64::MAX) || qhat * v2 > ((rhat << 64) | u128::from(un[j + n - 2]))
        {
            qhat -= 1;
            rhat += v1;
            if rhat > u128::from(u64::MAX) {
                break;
            }
        }
        // D4..D6: subtract qhat * divisor; add back once if that went negative.
        let mut q = qhat as u64;
        if mul_sub(&mut un[j..=j + n], vn, q) {
            q = q.wrapping_sub(1);
            add_back(&mut un[j..=j + n], vn);
        }
        if !rem {
            out[j] = q;
        }
    }
    if rem {
        // D8: the remainder is the low n words of `un`, unnormalised.
        for (i, o) in out.iter_mut().enumerate().take(n) {
            let high = if s == 0 { 0 } else { un[i + 1] << (64 - s) };
            *o = (un[i] >> s) | high;
        }
    }
}

/// `u -= q * v` where `u` has one more word than `v`; true if the result
/// went negative (wrapped).
fn mul_sub(u: &mut [u64], v: &[u64], q: u64) -> bool {
    let mut carry = 0u64;
    let mut borrow = false;
    for (u, &v) in u.iter_mut().zip(v) {
        let p = u128::from(q) * u128::from(v) + u128::from(carry);
        carry = (p >> 64) as u64;
        let (d, b1) = u.overflowing_sub(p as u64);
        let (d, b2) = d.overflowing_sub(borrow as u64);
        *u = d;
        borrow = b1 | b2;
    }
    let top = &mut u[v.len()];
    let (d, b1) = top.overflowing_sub(carry);
    let (d, b2) = d.overflowing_sub(borrow as u64);
    *top = d;
    b1 | b2
}

/// `u += v` where `u` has one more word than `v`, ignoring the final carry
/// (it cancels the borrow of [`mul_sub`]).
fn add_back(u: &mut [u64], v: &[u64]) {
    let mut carry = false;
    for (u, &v) in u.iter_mut().zip(v) {
        let (s, c1) = u.overflowing_add(v);
        let (s, c2) = s.overflowing_add(carry as u64);
        *u = s;
        carry = c1 | c2;
    }
    let top = &mut u[v.len()];
    *top = top.wrapping_add(carry as u64);
}
