//! Like `frontend`, but the input follows `#include <v1model.p4>` so the
//! checker sees the architecture declarations a real program uses.
#![no_main]

use janus_p4::driver::{Options, compile_source};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut text = String::from("#include <v1model.p4>\n");
    text.push_str(&String::from_utf8_lossy(data));
    let c = compile_source("fuzz.p4", text, &Options::default());
    let _ = c.render(false);
});
