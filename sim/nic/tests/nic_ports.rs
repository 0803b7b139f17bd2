//! The port map in `p4/include/janus_nic.p4` and in `janus_nic::ports`
//! agree, constant by constant.

use janus_nic::ports;
use std::collections::HashMap;

/// `const TYPE NAME = VALUE;` declarations of the include file.
fn p4_constants() -> HashMap<String, u64> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../p4/include/janus_nic.p4");
    let text = std::fs::read_to_string(path).expect("janus_nic.p4 is readable");
    text.lines()
        .filter_map(|line| {
            let decl = line.trim().strip_prefix("const ")?;
            let (lhs, rhs) = decl.split_once('=')?;
            let name = lhs.split_whitespace().last()?.to_string();
            let value = rhs.split(';').next()?.trim().parse().ok()?;
            Some((name, value))
        })
        .collect()
}

#[test]
fn the_p4_include_and_the_rust_constants_agree() {
    let p4 = p4_constants();
    let want: [(&str, u64); 9] = [
        ("NIC_UPLINK_0", ports::UPLINKS[0].into()),
        ("NIC_UPLINK_1", ports::UPLINKS[1].into()),
        ("NIC_FIRST_VF", ports::FIRST_VF.into()),
        ("NIC_LAST_VF", ports::LAST_VF.into()),
        ("NIC_CPU_PORT", ports::CPU_PORT.into()),
        ("NIC_DROP_PORT", ports::DROP_PORT.into()),
        ("NIC_PUNT_ARP_GATEWAY", ports::punt::ARP_GATEWAY.into()),
        ("NIC_PUNT_ND_GATEWAY", ports::punt::ND_GATEWAY.into()),
        ("NIC_PUNT_MANAGEMENT", ports::punt::MANAGEMENT.into()),
    ];
    for (name, value) in want {
        assert_eq!(p4.get(name), Some(&value), "{name}");
    }
    assert_eq!(
        p4.get("NIC_UPLINK_COUNT"),
        Some(&(ports::UPLINKS.len() as u64))
    );
}

#[test]
fn the_drop_port_is_the_simulators() {
    assert_eq!(u64::from(ports::DROP_PORT), janus_v1model::DROP_PORT);
}
