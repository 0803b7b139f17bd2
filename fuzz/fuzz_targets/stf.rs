//! Arbitrary bytes as an STF file: parsing never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| janus_stf::fuzz(data));
