//! `--fail` specs: `link:A-B@T` (the cable between the nodes named `A`
//! and `B` fails, both directions) and `spine:N@T` (spine `N`, all its
//! links), at time `T`: seconds, or with a unit `s`, `ms`, `us`.

use crate::engine::{LinkChange, LinkState};
use crate::flow::LinkId;
use crate::topo::{NodeKind, Topology};

/// A `--fail` spec that does not parse or names nothing in the fabric.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--fail \"{spec}\": {message}")]
pub struct FailureError {
    pub spec: String,
    pub message: String,
}

/// Parses a time: `0.5`, `0.5s`, `20ms`, `300us`; finite, not negative.
pub fn parse_time(text: &str) -> Option<f64> {
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = text.strip_suffix("us") {
        (n, 1e-6)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else {
        (text, 1.0)
    };
    let v: f64 = number.parse().ok()?;
    (v.is_finite() && v >= 0.0).then_some(v * scale)
}

/// The link changes one `--fail` spec makes on `topo`, in link order.
pub fn parse_failure(spec: &str, topo: &Topology) -> Result<Vec<LinkChange>, FailureError> {
    let bad = |message: String| FailureError {
        spec: spec.to_string(),
        message,
    };
    let (what, at) = spec
        .rsplit_once('@')
        .ok_or_else(|| bad("expected link:A-B@TIME or spine:N@TIME".into()))?;
    let at = parse_time(at).ok_or_else(|| {
        bad(format!(
            "\"{at}\" is not a time (seconds, or with s, ms, us)"
        ))
    })?;
    let down = |link: LinkId| LinkChange {
        at,
        link,
        state: LinkState::Down,
    };
    match what.split_once(':') {
        Some(("link", ends)) => {
            let (a, b) = ends
                .split_once('-')
                .ok_or_else(|| bad(format!("\"{ends}\" is not A-B (two node names)")))?;
            let node = |name: &str| topo.node_by_name(name).map_err(|e| bad(e.to_string()));
            let (a, b) = (node(a)?, node(b)?);
            let link = topo.cable_between(a, b).map_err(|e| bad(e.to_string()))?;
            let mut both = [link, topo.reverse(link)];
            both.sort();
            Ok(both.into_iter().map(down).collect())
        }
        Some(("spine", n)) => {
            let index: u32 = n
                .parse()
                .map_err(|_| bad(format!("\"{n}\" is not a spine number")))?;
            let is_it =
                |id| matches!(topo.node_kind(id), NodeKind::Spine { index: i } if i == index);
            let links: Vec<LinkChange> = topo
                .links()
                .iter()
                .enumerate()
                .filter(|(_, l)| is_it(l.from) || is_it(l.to))
                .map(|(i, _)| down(LinkId(i as u32)))
                .collect();
            if links.is_empty() {
                return Err(bad(format!("the fabric has no spine {index}")));
            }
            Ok(links)
        }
        _ => Err(bad(format!("\"{what}\" is not link:A-B or spine:N"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topo() -> Topology {
        Topology::parse("leaf-spine:leaves=2,spines=4,hosts-per-leaf=2").unwrap()
    }

    #[test]
    fn links_and_spines_fail_at_their_time() {
        let t = topo();
        let c = parse_failure("link:leaf0-spine1@20ms", &t).unwrap();
        assert_eq!(c.len(), 2);
        assert!(
            c.iter()
                .all(|c| (c.at - 0.02).abs() < 1e-12 && c.state == LinkState::Down)
        );
        // A spine of a 2-leaf fabric has 2 cables: 4 links.
        assert_eq!(parse_failure("spine:3@0", &t).unwrap().len(), 4);
    }

    #[test]
    fn bad_specs_name_the_bad_part() {
        let t = topo();
        let err = |s: &str| parse_failure(s, &t).unwrap_err().to_string();
        assert!(
            err("spine:9@1").contains("no spine 9"),
            "{}",
            err("spine:9@1")
        );
        assert!(err("link:leaf0-spine1@soon").contains("\"soon\" is not a time"));
        assert!(err("switch:1@0").contains("\"switch:1\" is not link:A-B or spine:N"));
        assert!(err("link:leaf0@1").contains("\"leaf0\" is not A-B"));
        assert!(err("spine:1").contains("expected link:A-B@TIME"));
    }
}
