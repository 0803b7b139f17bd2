//! Arbitrary bytes as a pipeline file; whatever parses is compiled again.
#![no_main]

use janus_p4::pipeline::Pipeline;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(p) = Pipeline::from_bytes(data) {
        if let Ok(c) = p.compile() {
            let _ = c.render(false);
        }
    }
});
