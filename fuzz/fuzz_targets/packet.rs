//! Arbitrary bytes as a packet into loaded programs (through
//! `janus_targets::load`, as the CLI loads them): processing
//! never panics. The first byte picks the program and the ingress port; the
//! rest is the frame.
#![no_main]

use janus_engine::target::Target;
use libfuzzer_sys::fuzz_target;
use std::sync::{Mutex, OnceLock};

/// Programs with routes installed, so that packets reach tables, checksums
/// and the deparser rather than stopping at the first miss.
const PROGRAMS: &[(&str, &str, &str)] = &[
    (
        "l3_router_acl.p4",
        include_str!("../../p4/examples/l3_router_acl.p4"),
        "add ipv4_lpm hdr.ipv4.dst_addr:0x0a000000/8 set_nexthop(next_mac:0x0000000000bb, port:2)\n\
         add port_mac standard_metadata.egress_port:2 rewrite_source(smac:0x020000000002)\n",
    ),
    (
        "ipv4_options_varbit.p4",
        include_str!("../../sim/frontend/tests/p4/valid/ipv4_options_varbit.p4"),
        "",
    ),
    (
        "calculator_switch.p4",
        include_str!("../../sim/frontend/tests/p4/valid/calculator_switch.p4"),
        "",
    ),
    (
        "ip_header_union.p4",
        include_str!("../../sim/frontend/tests/p4/valid/ip_header_union.p4"),
        "",
    ),
    (
        "source_routing.p4",
        include_str!("../../sim/frontend/tests/p4/valid/source_routing.p4"),
        "",
    ),
    (
        "vxlan_tunnel.p4",
        include_str!("../../sim/frontend/tests/p4/valid/vxlan_tunnel.p4"),
        "",
    ),
    (
        "heavy_hitter_sketch.p4",
        include_str!("../../sim/frontend/tests/p4/valid/heavy_hitter_sketch.p4"),
        "",
    ),
];

fn switches() -> &'static Vec<Mutex<Box<dyn Target>>> {
    static SWITCHES: OnceLock<Vec<Mutex<Box<dyn Target>>>> = OnceLock::new();
    SWITCHES.get_or_init(|| {
        PROGRAMS
            .iter()
            .map(|(name, source, entries)| {
                let c = janus_p4::driver::compile_source(
                    name,
                    (*source).into(),
                    &Default::default(),
                );
                assert!(!c.has_errors(), "{name}: {}", c.render(false));
                let mut sw = janus_targets::load(c.ir.expect("ir")).expect(name);
                let stf = janus_stf::parse(entries).expect("entries parse");
                janus_stf::runner::configure(sw.as_mut(), &stf).expect("entries apply");
                Mutex::new(sw)
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&select, frame)) = data.split_first() else {
        return;
    };
    let switches = switches();
    let sw = &switches[select as usize % switches.len()];
    let port = u32::from(select >> 4);
    let mut sw = sw.lock().unwrap_or_else(|e| e.into_inner());
    let _ = sw.process(port, frame);
});
