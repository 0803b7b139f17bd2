//! Arbitrary bytes as a capture file: reading every packet never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(reader) = janus_pcap::open(data) {
        for packet in reader {
            if let Ok(p) = packet {
                let _ = (p.timestamp_ns, p.data.len(), p.orig_len);
            }
        }
    }
});
