//! gNMI paths: resolving a requested (prefix + path) against the interface
//! tree, and building the paths of the values sent back.
//!
//! Served paths (origin empty or `openconfig`; the first element may be
//! module-qualified as `openconfig-interfaces:interfaces`):
//!
//! - `/` and `/interfaces`, `/interfaces/interface` (every listed interface)
//! - `/interfaces/interface[name=X]`, `X` a listed interface or `*`
//! - `.../state`, `.../state/counters`
//! - `.../state/{name,oper-status,admin-status}`,
//!   `.../state/counters/{in-pkts,in-octets,out-pkts,out-octets,in-discards}`

use super::model::{Container, Leaf, PortList};
use crate::proto::gnmi as g;
use std::collections::HashMap;
use tonic::Status;

/// Why a path cannot be served.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PathError {
    /// The path names nothing in the tree (gRPC NOT_FOUND).
    #[error("no data at {0}")]
    NotFound(String),
    /// The path is malformed (gRPC INVALID_ARGUMENT).
    #[error("bad path {0}: {1}")]
    Invalid(String, &'static str),
}

impl From<PathError> for Status {
    fn from(e: PathError) -> Status {
        match e {
            PathError::NotFound(_) => Status::not_found(e.to_string()),
            PathError::Invalid(..) => Status::invalid_argument(e.to_string()),
        }
    }
}

/// What a path selects: a node kind over some interfaces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// The selected interfaces' ports, in port order.
    pub ports: Vec<u32>,
    pub node: Node,
}

/// The node a path ends at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    Container(Container),
    Leaf(Leaf),
}

impl Node {
    /// The leaves at or below the node.
    pub fn leaves(self) -> Vec<Leaf> {
        match self {
            Node::Leaf(l) => vec![l],
            Node::Container(Container::Counters) => Leaf::COUNTERS.to_vec(),
            Node::Container(_) => Leaf::ALL.to_vec(),
        }
    }
}

/// Resolves `prefix` + `path` (either may be absent) over `list`.
pub fn resolve(
    prefix: Option<&g::Path>,
    path: Option<&g::Path>,
    list: &PortList,
) -> Result<Selection, PathError> {
    let parts: Vec<&g::Path> = prefix.into_iter().chain(path).collect();
    let elems: Vec<&g::PathElem> = parts.iter().flat_map(|p| &p.elem).collect();
    let text = render(&elems);
    #[allow(deprecated)] // read only to refuse it
    let old_form = parts.iter().any(|p| !p.element.is_empty());
    if old_form {
        return Err(PathError::Invalid(
            text,
            "the deprecated string `element` form is not supported: use `elem`",
        ));
    }
    for p in &parts {
        if !matches!(p.origin.as_str(), "" | "openconfig") {
            return Err(PathError::NotFound(format!("origin {:?}", p.origin)));
        }
    }
    let not_found = || PathError::NotFound(text.clone());
    let keyless = |e: &g::PathElem| e.key.is_empty();
    let mut ports: Vec<u32> = list.iter().map(|(p, _)| p).collect();
    let mut node = Node::Container(Container::Interface);
    for (i, e) in elems.iter().enumerate() {
        let name = e.name.as_str();
        node = match (i, name, node) {
            (0, "interfaces" | "openconfig-interfaces:interfaces", _) if keyless(e) => node,
            (1, "interface", _) => {
                ports = select_interfaces(&e.key, list, &text)?;
                node
            }
            (2, "state", _) if keyless(e) => Node::Container(Container::State),
            (3, "counters", _) if keyless(e) => Node::Container(Container::Counters),
            (3, leaf, _) if keyless(e) => {
                Node::Leaf(Leaf::from_yang(leaf, false).ok_or_else(not_found)?)
            }
            (4, leaf, Node::Container(Container::Counters)) if keyless(e) => {
                Node::Leaf(Leaf::from_yang(leaf, true).ok_or_else(not_found)?)
            }
            _ if !keyless(e) => {
                return Err(PathError::Invalid(
                    text,
                    "keys on an element that is not a list",
                ));
            }
            _ => return Err(not_found()),
        };
    }
    Ok(Selection { ports, node })
}

/// The interfaces a key map of `interface` selects.
fn select_interfaces(
    keys: &HashMap<String, String>,
    list: &PortList,
    text: &str,
) -> Result<Vec<u32>, PathError> {
    if keys.keys().any(|k| k != "name") {
        return Err(PathError::Invalid(
            text.into(),
            "interface is keyed by `name` only",
        ));
    }
    match keys.get("name").map(String::as_str) {
        None | Some("*") => Ok(list.iter().map(|(p, _)| p).collect()),
        Some(name) => list
            .port_of(name)
            .map(|p| vec![p])
            .ok_or_else(|| PathError::NotFound(text.into())),
    }
}

/// `elems` as text, `/a/b[k=v]`.
fn render(elems: &[&g::PathElem]) -> String {
    if elems.is_empty() {
        return "/".into();
    }
    let mut out = String::new();
    for e in elems {
        out.push('/');
        out.push_str(&e.name);
        let mut keys: Vec<_> = e.key.iter().collect();
        keys.sort();
        for (k, v) in keys {
            out.push_str(&format!("[{k}={v}]"));
        }
    }
    out
}

fn elem(name: &str) -> g::PathElem {
    g::PathElem {
        name: name.into(),
        key: HashMap::new(),
    }
}

/// The path of `node` of interface `interface`.
pub fn node_path(interface: &str, node: Node) -> g::Path {
    let mut elems = vec![
        elem("interfaces"),
        g::PathElem {
            name: "interface".into(),
            key: HashMap::from([("name".to_string(), interface.to_string())]),
        },
    ];
    let below: &[&str] = match node {
        Node::Container(Container::Interface) => &[],
        Node::Container(Container::State) => &["state"],
        Node::Container(Container::Counters) => &["state", "counters"],
        Node::Leaf(l) if l.is_counter() => &["state", "counters", l.yang_name()],
        Node::Leaf(l) => &["state", l.yang_name()],
    };
    elems.extend(below.iter().map(|n| elem(n)));
    g::Path {
        elem: elems,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(spec: &[(&str, Option<&str>)]) -> g::Path {
        g::Path {
            elem: spec
                .iter()
                .map(|(n, k)| g::PathElem {
                    name: n.to_string(),
                    key: k
                        .map(|v| HashMap::from([("name".to_string(), v.to_string())]))
                        .unwrap_or_default(),
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn resolves_leaves_containers_and_wildcards() {
        let list = PortList::new([0, 2, 510]).unwrap();
        let leaf = path(&[
            ("interfaces", None),
            ("interface", Some("vf2")),
            ("state", None),
            ("counters", None),
            ("in-pkts", None),
        ]);
        assert_eq!(
            resolve(None, Some(&leaf), &list),
            Ok(Selection {
                ports: vec![2],
                node: Node::Leaf(Leaf::InPkts)
            })
        );
        let prefix = path(&[("interfaces", None), ("interface", Some("*"))]);
        let state = path(&[("state", None)]);
        assert_eq!(
            resolve(Some(&prefix), Some(&state), &list),
            Ok(Selection {
                ports: vec![0, 2, 510],
                node: Node::Container(Container::State)
            })
        );
        assert_eq!(resolve(None, None, &list).unwrap().ports, vec![0, 2, 510]);
        assert_eq!(node_path("vf2", Node::Leaf(Leaf::InPkts)), leaf);
    }

    #[test]
    fn refuses_unknown_paths() {
        let list = PortList::new([0]).unwrap();
        for bad in [
            path(&[("system", None)]),
            path(&[("interfaces", None), ("interface", Some("vf2"))]),
            path(&[("interfaces", None), ("interface", None), ("config", None)]),
            path(&[
                ("interfaces", None),
                ("interface", None),
                ("state", None),
                ("mtu", None),
            ]),
            path(&[
                ("interfaces", None),
                ("interface", None),
                ("state", None),
                ("in-pkts", None),
            ]),
        ] {
            assert!(
                matches!(
                    resolve(None, Some(&bad), &list),
                    Err(PathError::NotFound(_))
                ),
                "{bad:?}"
            );
        }
        let keyed = path(&[("interfaces", Some("x"))]);
        assert!(matches!(
            resolve(None, Some(&keyed), &list),
            Err(PathError::Invalid(..))
        ));
    }
}
