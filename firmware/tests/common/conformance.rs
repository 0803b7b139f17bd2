//! The behaviour every `Flash` backend must show (the trait's documented
//! semantics). Destructive: it erases and programs sectors 0, 1 and the
//! last one.

use janus_firmware_core::flash::{Flash, FlashError};

/// Runs every check on `flash`.
pub fn check(flash: &mut dyn Flash) {
    geometry_is_sane(flash);
    erase_sets_ff(flash);
    reads_return_what_was_written(flash);
    writes_only_clear_bits(flash);
    erase_touches_one_sector(flash);
    out_of_range_is_refused(flash);
}

fn sector_start(flash: &dyn Flash, sector: u32) -> u64 {
    u64::from(sector) * u64::from(flash.geometry().sector_size)
}

fn read(flash: &mut dyn Flash, offset: u64, len: usize) -> Vec<u8> {
    let mut buf = vec![0x5A; len];
    flash.read(offset, &mut buf).unwrap();
    buf
}

pub fn geometry_is_sane(flash: &mut dyn Flash) {
    let g = flash.geometry();
    assert!(g.sector_size > 0 && g.sector_count >= 2, "{g:?}");
    assert!(g.sector_size.is_power_of_two(), "{g:?}");
    assert_eq!(
        g.size(),
        u64::from(g.sector_size) * u64::from(g.sector_count)
    );
    let mut last = [0; 1];
    flash.read(g.size() - 1, &mut last).unwrap();
}

pub fn erase_sets_ff(flash: &mut dyn Flash) {
    let g = flash.geometry();
    for sector in [0, g.sector_count - 1] {
        let start = sector_start(flash, sector);
        flash.write(start, &[0x00; 16]).unwrap();
        flash.erase(sector).unwrap();
        let bytes = read(flash, start, g.sector_size as usize);
        assert!(
            bytes.iter().all(|&b| b == 0xFF),
            "sector {sector} not erased"
        );
    }
}

pub fn reads_return_what_was_written(flash: &mut dyn Flash) {
    let g = flash.geometry();
    flash.erase(0).unwrap();
    flash.erase(1).unwrap();
    let pattern: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
    flash.write(17, &pattern).unwrap();
    assert_eq!(read(flash, 17, pattern.len()), pattern);
    // Across the boundary between sectors 0 and 1.
    let boundary = u64::from(g.sector_size) - 50;
    flash.write(boundary, &pattern[..100]).unwrap();
    assert_eq!(read(flash, boundary, 100), &pattern[..100]);
    // Reads of any length and alignment agree with one large read.
    let all = read(flash, 0, 2 * g.sector_size as usize);
    for (offset, len) in [(0, 1), (16, 3), (17, 1), (boundary - 1, 102)] {
        let part = read(flash, offset, len);
        assert_eq!(part, &all[offset as usize..offset as usize + len]);
    }
}

pub fn writes_only_clear_bits(flash: &mut dyn Flash) {
    flash.erase(0).unwrap();
    flash.write(0, &[0x0F, 0xF0, 0xAA, 0x00]).unwrap();
    flash.write(0, &[0xF0, 0xFF, 0x55, 0xFF]).unwrap();
    assert_eq!(read(flash, 0, 4), [0x00, 0xF0, 0x00, 0x00]);
    // Writing 0xFF over programmed bytes changes nothing.
    flash.write(2, &[0xFF, 0xFF]).unwrap();
    assert_eq!(read(flash, 0, 4), [0x00, 0xF0, 0x00, 0x00]);
    // Only an erase sets bits again.
    flash.erase(0).unwrap();
    flash.write(0, &[0x3C]).unwrap();
    assert_eq!(read(flash, 0, 2), [0x3C, 0xFF]);
}

pub fn erase_touches_one_sector(flash: &mut dyn Flash) {
    let g = flash.geometry();
    let size = g.sector_size as usize;
    flash.erase(0).unwrap();
    flash.erase(1).unwrap();
    flash.write(0, &vec![0x11; 2 * size]).unwrap();
    flash.erase(1).unwrap();
    let both = read(flash, 0, 2 * size);
    assert!(
        both[..size].iter().all(|&b| b == 0x11),
        "erase of sector 1 touched sector 0"
    );
    assert!(both[size..].iter().all(|&b| b == 0xFF));
}

pub fn out_of_range_is_refused(flash: &mut dyn Flash) {
    let g = flash.geometry();
    let size = g.size();
    let mut two = [0; 2];
    assert_eq!(flash.read(size - 1, &mut two), Err(FlashError::OutOfRange));
    assert_eq!(flash.read(size, &mut two[..1]), Err(FlashError::OutOfRange));
    assert_eq!(flash.read(u64::MAX, &mut two), Err(FlashError::OutOfRange));
    assert_eq!(flash.write(size - 1, &[0, 0]), Err(FlashError::OutOfRange));
    assert_eq!(
        flash.write(u64::MAX - 1, &[0, 0, 0]),
        Err(FlashError::OutOfRange)
    );
    assert_eq!(flash.erase(g.sector_count), Err(FlashError::OutOfRange));
    assert_eq!(flash.erase(u32::MAX), Err(FlashError::OutOfRange));
    // A refused write changed nothing at the end of the device.
    let last = g.sector_count - 1;
    flash.erase(last).unwrap();
    assert_eq!(flash.write(size - 1, &[0, 0]), Err(FlashError::OutOfRange));
    let mut one = [0; 1];
    flash.read(size - 1, &mut one).unwrap();
    assert_eq!(one, [0xFF]);
}
