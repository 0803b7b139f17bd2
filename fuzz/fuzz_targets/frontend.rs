//! Arbitrary bytes through the whole front end (preprocess, lex, parse,
//! check), then through diagnostic rendering and, for a program that
//! checks, P4Info and its three file formats.
#![no_main]

use janus_p4::driver::{Options, compile_source};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let c = compile_source("fuzz.p4", text, &Options::default());
    let _ = c.render(false);
    if let Some(program) = c.program() {
        let info = janus_p4::p4info::build(program);
        let _ = janus_p4::p4info::to_text(&info);
        let _ = janus_p4::p4info::to_json(&info);
        let _ = janus_p4::p4info::to_binary(&info);
        let _ = janus_p4::p4info::entries_to_text(&info);
    }
});
