//! The data gNMI serves: OpenConfig interface state of the NIC's ports.
//!
//! Interface names follow Janus's NIC port map (`janus_nic::ports`):
//! `uplink0` and `uplink1` (ports 0 and 1), `vfN` for the host virtual
//! function on port N (2..=509), `cpu` (port 510). Each interface has the
//! leaves of [`Leaf`] under `/interfaces/interface[name=X]/state`.

use crate::port_stats::PortCounters;
use janus_nic::ports;

/// The OpenConfig module the data belongs to (JSON_IETF member prefix).
pub const MODULE: &str = "openconfig-interfaces";

/// The interface name of `port`, if it is a NIC port.
pub fn interface_name(port: u32) -> Option<String> {
    if let Some(i) = ports::UPLINKS.iter().position(|&u| u == port) {
        Some(format!("uplink{i}"))
    } else if ports::is_vf(port) {
        Some(format!("vf{port}"))
    } else if port == ports::CPU_PORT {
        Some("cpu".into())
    } else {
        None
    }
}

/// The port of interface `name` (the inverse of [`interface_name`]).
pub fn interface_port(name: &str) -> Option<u32> {
    let port = if name == "cpu" {
        ports::CPU_PORT
    } else if let Some(i) = name.strip_prefix("uplink") {
        *ports::UPLINKS.get(canonical_number(i)? as usize)?
    } else {
        canonical_number(name.strip_prefix("vf")?)?
    };
    (interface_name(port).as_deref() == Some(name)).then_some(port)
}

/// A decimal number without sign or leading zeros.
fn canonical_number(s: &str) -> Option<u32> {
    let n: u32 = s.parse().ok()?;
    (n.to_string() == s).then_some(n)
}

/// The interfaces gNMI lists: NIC ports, each once, in port order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortList {
    ports: Vec<(u32, String)>,
}

/// A port that cannot be an interface.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("port {0} is not a NIC port (uplinks 0-1, VFs 2-509, CPU 510)")]
pub struct NotAnInterface(pub u32);

impl PortList {
    /// The interfaces of `ports` (repeats are listed once).
    pub fn new(ports: impl IntoIterator<Item = u32>) -> Result<PortList, NotAnInterface> {
        let mut list = ports
            .into_iter()
            .map(|p| interface_name(p).map(|n| (p, n)).ok_or(NotAnInterface(p)))
            .collect::<Result<Vec<_>, _>>()?;
        list.sort();
        list.dedup();
        Ok(PortList { ports: list })
    }

    /// (port, interface name) of every listed interface.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &str)> {
        self.ports.iter().map(|(p, n)| (*p, n.as_str()))
    }

    /// The port of the listed interface `name`.
    pub fn port_of(&self, name: &str) -> Option<u32> {
        let port = interface_port(name)?;
        self.ports.iter().any(|(p, _)| *p == port).then_some(port)
    }
}

impl Default for PortList {
    /// The two uplinks, the first eight VFs (ports 2..=9) and the CPU port.
    fn default() -> Self {
        let vfs = ports::FIRST_VF..ports::FIRST_VF + 8;
        PortList::new(
            ports::UPLINKS
                .into_iter()
                .chain(vfs)
                .chain([ports::CPU_PORT]),
        )
        .unwrap_or(PortList { ports: Vec::new() })
    }
}

/// A leaf of `/interfaces/interface/state`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Leaf {
    Name,
    /// The port number (clients such as finsy key interfaces by it).
    Ifindex,
    OperStatus,
    AdminStatus,
    InPkts,
    InOctets,
    OutPkts,
    OutOctets,
    InDiscards,
}

impl Leaf {
    /// Every leaf, in the order they are sent.
    pub const ALL: [Leaf; 9] = [
        Leaf::Name,
        Leaf::Ifindex,
        Leaf::OperStatus,
        Leaf::AdminStatus,
        Leaf::InPkts,
        Leaf::InOctets,
        Leaf::OutPkts,
        Leaf::OutOctets,
        Leaf::InDiscards,
    ];

    /// The leaves under `state/counters`.
    pub const COUNTERS: [Leaf; 5] = [
        Leaf::InPkts,
        Leaf::InOctets,
        Leaf::OutPkts,
        Leaf::OutOctets,
        Leaf::InDiscards,
    ];

    /// The YANG name of the leaf.
    pub fn yang_name(self) -> &'static str {
        match self {
            Leaf::Name => "name",
            Leaf::Ifindex => "ifindex",
            Leaf::OperStatus => "oper-status",
            Leaf::AdminStatus => "admin-status",
            Leaf::InPkts => "in-pkts",
            Leaf::InOctets => "in-octets",
            Leaf::OutPkts => "out-pkts",
            Leaf::OutOctets => "out-octets",
            Leaf::InDiscards => "in-discards",
        }
    }

    /// Whether the leaf sits under `state/counters` (else directly under
    /// `state`).
    pub fn is_counter(self) -> bool {
        Leaf::COUNTERS.contains(&self)
    }

    /// The leaf named `name` under `state` (`counters` false) or under
    /// `state/counters` (`counters` true).
    pub fn from_yang(name: &str, counters: bool) -> Option<Leaf> {
        Leaf::ALL
            .into_iter()
            .find(|l| l.is_counter() == counters && l.yang_name() == name)
    }
}

/// The value of a leaf.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Text(String),
    /// A 64-bit count (a string in JSON_IETF).
    Count(u64),
    /// A 32-bit number (a number in every JSON style).
    Number(u32),
}

/// What one interface's leaves are read from.
pub struct InterfaceState {
    /// The interface name.
    pub name: String,
    /// Its port number.
    pub port: u32,
    /// Whether the NIC forwards (a pipeline is committed): `oper-status`
    /// is UP then, DOWN before.
    pub forwarding: bool,
    pub counters: PortCounters,
}

impl InterfaceState {
    /// The value of `leaf`.
    pub fn value(&self, leaf: Leaf) -> Value {
        let c = &self.counters;
        match leaf {
            Leaf::Name => Value::Text(self.name.clone()),
            Leaf::Ifindex => Value::Number(self.port),
            Leaf::OperStatus => Value::Text(if self.forwarding { "UP" } else { "DOWN" }.into()),
            // The ports cannot be disabled (there is no config to set).
            Leaf::AdminStatus => Value::Text("UP".into()),
            Leaf::InPkts => Value::Count(c.in_pkts),
            Leaf::InOctets => Value::Count(c.in_octets),
            Leaf::OutPkts => Value::Count(c.out_pkts),
            Leaf::OutOctets => Value::Count(c.out_octets),
            Leaf::InDiscards => Value::Count(c.in_discards),
        }
    }
}

/// How container values are written as JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonStyle {
    /// Plain JSON: counts as numbers.
    Plain,
    /// RFC 7951: top-level members qualified by module, 64-bit counts as
    /// strings.
    Ietf,
}

/// A container of the interface tree, for its JSON value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container {
    /// `/interfaces/interface[name=X]`: `name` and `state`.
    Interface,
    /// `.../state`.
    State,
    /// `.../state/counters`.
    Counters,
}

/// The JSON value of `container` of one interface.
pub fn container_json(container: Container, state: &InterfaceState, style: JsonStyle) -> String {
    let mut out = String::new();
    write_container(&mut out, container, state, style, true);
    out
}

/// Writes `container` as a JSON object. RFC 7951 qualifies a member name
/// only where its module differs from its parent's: at the top level of
/// the value (`top`) and nowhere below.
fn write_container(
    out: &mut String,
    container: Container,
    state: &InterfaceState,
    style: JsonStyle,
    top: bool,
) {
    out.push('{');
    let mut first = true;
    let mut member = |out: &mut String, name: &str| {
        if !first {
            out.push(',');
        }
        first = false;
        if top && style == JsonStyle::Ietf {
            push_string(out, &format!("{MODULE}:{name}"));
        } else {
            push_string(out, name);
        }
        out.push(':');
    };
    match container {
        Container::Interface => {
            member(out, "name");
            push_value(out, &state.value(Leaf::Name), style);
            member(out, "state");
            write_container(out, Container::State, state, style, false);
        }
        Container::State => {
            for leaf in Leaf::ALL.into_iter().filter(|l| !l.is_counter()) {
                member(out, leaf.yang_name());
                push_value(out, &state.value(leaf), style);
            }
            member(out, "counters");
            write_container(out, Container::Counters, state, style, false);
        }
        Container::Counters => {
            for leaf in Leaf::COUNTERS {
                member(out, leaf.yang_name());
                push_value(out, &state.value(leaf), style);
            }
        }
    }
    out.push('}');
}

fn push_value(out: &mut String, value: &Value, style: JsonStyle) {
    match (value, style) {
        (Value::Text(t), _) => push_string(out, t),
        (Value::Count(n), JsonStyle::Plain) => out.push_str(&n.to_string()),
        (Value::Count(n), JsonStyle::Ietf) => push_string(out, &n.to_string()),
        (Value::Number(n), _) => out.push_str(&n.to_string()),
    }
}

fn push_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_odd_names_are_refused() {
        for port in [0, 1, 2, 9, 509, 510] {
            let name = interface_name(port).unwrap();
            assert_eq!(interface_port(&name), Some(port), "{name}");
        }
        assert_eq!(interface_name(0).as_deref(), Some("uplink0"));
        assert_eq!(interface_name(7).as_deref(), Some("vf7"));
        assert_eq!(interface_name(511), None);
        for bad in [
            "vf0", "vf1", "vf510", "vf02", "uplink2", "uplink01", "cpu0", "", "vf+3",
        ] {
            assert_eq!(interface_port(bad), None, "{bad}");
        }
    }

    #[test]
    fn json_styles() {
        let state = InterfaceState {
            name: "vf2".into(),
            port: 2,
            forwarding: true,
            counters: PortCounters {
                in_pkts: 3,
                ..Default::default()
            },
        };
        assert_eq!(
            container_json(Container::Counters, &state, JsonStyle::Plain),
            r#"{"in-pkts":3,"in-octets":0,"out-pkts":0,"out-octets":0,"in-discards":0}"#
        );
        let ietf = container_json(Container::Interface, &state, JsonStyle::Ietf);
        assert!(
            ietf.starts_with(r#"{"openconfig-interfaces:name":"vf2","openconfig-interfaces:state":{"name":"vf2","ifindex":2,"oper-status":"UP","admin-status":"UP","counters":{"in-pkts":"3","#),
            "{ietf}"
        );
    }
}
