//! Arbitrary bytes through the whole front end (preprocess, lex, parse,
//! check), then through diagnostic rendering.
#![no_main]

use janus_p4::driver::{Options, compile_source};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let c = compile_source("fuzz.p4", text, &Options::default());
    let _ = c.render(false);
});
