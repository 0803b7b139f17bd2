//! Set-up shared by the v1model integration tests.
#![allow(dead_code)] // each test file uses its own part

use janus_engine::target::Target;
use janus_v1model::V1Switch;

/// Compiles `source` (named `name` in diagnostics) and loads it; panics
/// with the rendered diagnostics if it does not compile.
pub fn load(name: &str, source: &str) -> V1Switch {
    let c = janus_p4::driver::compile_source(name, source.into(), &Default::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    V1Switch::load(c.ir.expect("ir")).expect("loads")
}

/// The (port, bytes) of the one copy `packet` sent on port 1 makes.
pub fn one_copy(sw: &mut V1Switch, packet: &[u8]) -> (u32, Vec<u8>) {
    let out = sw.process(1, packet);
    assert_eq!(out.len(), 1, "{out:?}");
    out.into_iter().next().expect("one copy")
}
