//! The module graphs docs/architecture.md states: inside the engine and the
//! control plane no two modules import each other, except the mutual
//! recursions the docs name (the engine's `env`/`eval`/`externs` layer and
//! its `exec`/`parser` layer). A module is a top-level module of the
//! crate (`device/table_entries.rs` belongs to `device`); an import is a
//! `crate::name` path outside comments and test modules (`tests.rs` files
//! and what follows a file's `#[cfg(test)]`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Top-level module -> the top-level modules it names.
type Graph = BTreeMap<String, BTreeSet<String>>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs")
            && path.file_stem().is_some_and(|x| x != "tests")
        {
            out.push(path);
        }
    }
}

/// The code of a file without its comments and its test modules (from the
/// first `#[cfg(test)]` on: test modules come last).
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

fn graph_of(src: &Path) -> Graph {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut graph = Graph::new();
    for file in files {
        let rel = file.strip_prefix(src).expect("under src");
        let first = rel.components().next().expect("a file");
        let module = first
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if module == "lib" || module == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("readable source");
        let code = code_of(&text);
        let uses = graph.entry(module.clone()).or_default();
        for (at, _) in code.match_indices("crate::") {
            let name: String = code[at + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && name != module && name != "proto" {
                uses.insert(name);
            }
        }
    }
    graph
}

/// The pairs of modules that import each other, directly or through
/// others: every strongly connected group of more than one module.
fn circles(graph: &Graph) -> Vec<BTreeSet<String>> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(m) = todo.pop() {
            for next in graph.get(&m).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|m| (m, reach(m))).collect();
    let mut groups: Vec<BTreeSet<String>> = Vec::new();
    for (m, r) in &reached {
        if !r.contains(*m) {
            continue;
        }
        let group: BTreeSet<String> = r
            .iter()
            .filter(|o| reached.get(o).is_some_and(|back| back.contains(*m)))
            .cloned()
            .collect();
        if group.len() > 1 && !groups.contains(&group) {
            groups.push(group);
        }
    }
    groups
}

fn crate_src(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(dir).join("src")
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| n.to_string()).collect()
}

#[test]
fn the_control_plane_has_no_import_circle() {
    let graph = graph_of(&crate_src("ctrl"));
    assert!(graph.contains_key("device") && graph.contains_key("tables"));
    assert_eq!(circles(&graph), Vec::<BTreeSet<String>>::new());
}

#[test]
fn the_engine_has_only_the_circles_the_docs_name() {
    let graph = graph_of(&crate_src("sim/engine"));
    assert!(graph.contains_key("exec") && graph.contains_key("table"));
    let mut found = circles(&graph);
    found.sort();
    let mut named = vec![set(&["env", "eval", "externs"]), set(&["exec", "parser"])];
    named.sort();
    assert_eq!(found, named);
}

#[test]
fn a_circle_is_found_through_a_third_module() {
    let mut g = Graph::new();
    g.insert("a".into(), set(&["b"]));
    g.insert("b".into(), set(&["c"]));
    g.insert("c".into(), set(&["a"]));
    g.insert("d".into(), set(&["a"]));
    assert_eq!(circles(&g), vec![set(&["a", "b", "c"])]);
    let code = code_of("use crate::x; // crate::y\n#[cfg(test)]\nuse crate::z;");
    assert!(code.contains("crate::x") && !code.contains("crate::y") && !code.contains("crate::z"));
}
