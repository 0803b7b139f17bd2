//! The CRCs Janus computes: CRC-32/IEEE 802.3 (zlib's, Ethernet's FCS,
//! v1model's `crc32`, the journal's record check) and CRC-16/ARC (v1model's
//! `crc16`, the RoCEv2 path hash). Both are reflected, so the register
//! shifts right; both are table-driven, CRC-32 eight bytes at a time
//! (slicing-by-8).
//!
//! The `_update` forms take and return the raw register, for algorithms
//! that start from another value or keep the register between packets
//! (v1model's `crc32_custom`/`crc16_custom` state).

/// CRC-32/IEEE of `data`: register from all ones, final inversion; check
/// value 0xCBF43926 for `"123456789"`.
pub fn crc32(data: &[u8]) -> u32 {
    !crc32_update(!0, data)
}

/// The CRC-32 register after `data`, from `register` (no inversion on
/// either side).
pub fn crc32_update(mut register: u32, data: &[u8]) -> u32 {
    let t = &CRC32_TABLES;
    let (eights, rest) = data.as_chunks::<8>();
    for w in eights {
        let lo = register ^ u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        register = t[7][(lo & 0xff) as usize]
            ^ t[6][((lo >> 8) & 0xff) as usize]
            ^ t[5][((lo >> 16) & 0xff) as usize]
            ^ t[4][(lo >> 24) as usize]
            ^ t[3][usize::from(w[4])]
            ^ t[2][usize::from(w[5])]
            ^ t[1][usize::from(w[6])]
            ^ t[0][usize::from(w[7])];
    }
    for &b in rest {
        register = t[0][((register ^ u32::from(b)) & 0xff) as usize] ^ (register >> 8);
    }
    register
}

/// CRC-32/IEEE of a message fed in pieces: `Crc32::new().update(a)
/// .update(b).finish()` is `crc32` of `a` then `b`.
#[derive(Clone, Copy, Debug)]
pub struct Crc32(u32);

impl Crc32 {
    pub fn new() -> Crc32 {
        Crc32(!0)
    }

    pub fn update(self, data: &[u8]) -> Crc32 {
        Crc32(crc32_update(self.0, data))
    }

    pub fn finish(self) -> u32 {
        !self.0
    }
}

impl Default for Crc32 {
    fn default() -> Crc32 {
        Crc32::new()
    }
}

/// CRC-16/ARC of `data`: polynomial 0x8005 reflected (0xA001), register
/// from 0, no final XOR; check value 0xBB3D for `"123456789"`.
pub fn crc16_arc(data: &[u8]) -> u16 {
    crc16_arc_update(0, data)
}

/// The CRC-16/ARC register after `data`, from `register`.
pub fn crc16_arc_update(register: u16, data: &[u8]) -> u16 {
    data.iter().fold(register, |crc, &byte| {
        (crc >> 8) ^ CRC16_ARC_TABLE[usize::from((crc as u8) ^ byte)]
    })
}

/// The register after one byte `i` shifted through a reflected CRC of
/// polynomial `poly` (reflected form) from zero.
const fn reflected_byte(poly: u32, i: u32) -> u32 {
    let mut c = i;
    let mut k = 0;
    while k < 8 {
        c = if c & 1 != 0 { (c >> 1) ^ poly } else { c >> 1 };
        k += 1;
    }
    c
}

/// Slicing-by-8 tables of CRC-32 (reflected polynomial 0xEDB88320):
/// `[0]` the byte-wise table, `[k][b]` the CRC of byte `b` followed by `k`
/// zero bytes.
const CRC32_TABLES: [[u32; 256]; 8] = {
    let mut t = [[0u32; 256]; 8];
    let mut i = 0;
    while i < 256 {
        t[0][i] = reflected_byte(0xEDB8_8320, i as u32);
        i += 1;
    }
    let mut k = 1;
    while k < 8 {
        let mut i = 0;
        while i < 256 {
            let prev = t[k - 1][i];
            t[k][i] = (prev >> 8) ^ t[0][(prev & 0xff) as usize];
            i += 1;
        }
        k += 1;
    }
    t
};

/// CRC-16/ARC of each byte value (reflected polynomial 0xA001).
const CRC16_ARC_TABLE: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = reflected_byte(0xA001, i as u32) as u16;
        i += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A reflected CRC one bit at a time, as its definition reads.
    fn bitwise(poly: u32, mut register: u32, data: &[u8]) -> u32 {
        for &b in data {
            register ^= u32::from(b);
            for _ in 0..8 {
                register = if register & 1 != 0 {
                    (register >> 1) ^ poly
                } else {
                    register >> 1
                };
            }
        }
        register
    }

    #[test]
    fn catalogue_check_values() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc16_arc(b"123456789"), 0xBB3D);
        assert_eq!(crc32(b""), 0);
        assert_eq!(crc16_arc(b""), 0);
    }

    proptest! {
        #[test]
        fn tables_agree_with_the_bitwise_definition(
            data in proptest::collection::vec(any::<u8>(), 0..100),
            start in any::<u32>(),
            cut in 0usize..100,
        ) {
            prop_assert_eq!(crc32_update(start, &data), bitwise(0xEDB8_8320, start, &data));
            let start16 = start as u16;
            prop_assert_eq!(
                u32::from(crc16_arc_update(start16, &data)),
                bitwise(0xA001, u32::from(start16), &data)
            );
            // Fed in two pieces, the register carries over.
            let cut = cut.min(data.len());
            prop_assert_eq!(Crc32::new().update(&data[..cut]).update(&data[cut..]).finish(), crc32(&data));
        }
    }
}
