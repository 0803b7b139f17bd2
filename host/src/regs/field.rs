//! Little-endian field access on byte slices, checked (never panics).

/// Reads the `N` bytes at `off`, if they are there.
fn bytes<const N: usize>(buf: &[u8], off: usize) -> Option<[u8; N]> {
    buf.get(off..off.checked_add(N)?)?.try_into().ok()
}

pub(crate) fn u16_at(buf: &[u8], off: usize) -> Option<u16> {
    bytes(buf, off).map(u16::from_le_bytes)
}

pub(crate) fn u32_at(buf: &[u8], off: usize) -> Option<u32> {
    bytes(buf, off).map(u32::from_le_bytes)
}

pub(crate) fn u64_at(buf: &[u8], off: usize) -> Option<u64> {
    bytes(buf, off).map(u64::from_le_bytes)
}

/// Writes `value` at `off`; false if it does not fit.
pub(crate) fn put(buf: &mut [u8], off: usize, value: &[u8]) -> bool {
    match off
        .checked_add(value.len())
        .and_then(|end| buf.get_mut(off..end))
    {
        Some(dst) => {
            dst.copy_from_slice(value);
            true
        }
        None => false,
    }
}
