//! The front end against the project's P4 corpus (`tests/p4/`):
//! every program in `valid/` compiles with no error and no warning; every
//! program in `invalid/` reports the error code named by its
//! `// error: EXXXX` marker, on the marked line of the program itself;
//! every program in `warn/` compiles without errors and reports the warning
//! named by its `// warning: WXXXX` marker on the marked line.

use janus_p4::diag::Severity;
use janus_p4::driver::{Options, compile_file};
use std::path::{Path, PathBuf};

fn programs(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "p4"))
        .collect();
    files.sort();
    files
}

#[test]
fn valid_programs_compile_cleanly() {
    // The programs Janus ships are part of the valid corpus.
    let mut files = programs("tests/p4/valid");
    files.extend(programs("../../p4/examples"));
    files.extend(programs("../../p4"));
    assert!(
        files.len() >= 60,
        "the valid corpus shrank to {}",
        files.len()
    );
    let mut failures = Vec::new();
    for f in &files {
        let c = compile_file(f, &Options::default()).expect("readable");
        if !c.diagnostics.is_empty() {
            failures.push(format!("{}:\n{}", f.display(), c.render(false)));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} valid programs have diagnostics:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// `(line, code)` of the `// <kind>: CODE` marker.
fn marker(text: &str, kind: &str) -> Option<(usize, String)> {
    let tag = format!("// {kind}: ");
    text.lines().enumerate().find_map(|(i, l)| {
        let at = l.find(&tag)?;
        let code = l[at + tag.len()..].split_whitespace().next()?.to_string();
        Some((i + 1, code))
    })
}

#[test]
fn invalid_programs_report_the_marked_error() {
    check_marked("tests/p4/invalid", "error", Severity::Error, 40);
}

#[test]
fn warning_programs_compile_with_the_marked_warning() {
    check_marked("tests/p4/warn", "warning", Severity::Warning, 2);
    for f in programs("tests/p4/warn") {
        let c = compile_file(&f, &Options::default()).expect("readable");
        assert!(!c.has_errors(), "{}:\n{}", f.display(), c.render(false));
    }
}

fn check_marked(dir: &str, kind: &str, severity: Severity, at_least: usize) {
    let files = programs(dir);
    assert!(
        files.len() >= at_least,
        "the {dir} corpus shrank to {}",
        files.len()
    );
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable");
        let Some((line, code)) = marker(&text, kind) else {
            failures.push(format!("{}: no `// {kind}: CODE` marker", f.display()));
            continue;
        };
        let c = compile_file(f, &Options::default()).expect("readable");
        let found = c.diagnostics.iter().any(|d| {
            d.severity == severity
                && d.code.as_str() == code
                && d.primary_span().is_some_and(|s| {
                    s.file == c.root && c.sources.file(s.file).line_col(s.lo).0 == line
                })
        });
        if !found {
            let got: Vec<String> = c
                .diagnostics
                .iter()
                .map(|d| {
                    let at = d.primary_span().map_or("?".into(), |s| {
                        let (l, col) = c.sources.file(s.file).line_col(s.lo);
                        format!("{}:{l}:{col}", c.sources.file(s.file).name)
                    });
                    format!("{} at {at}: {}", d.code, d.message)
                })
                .collect();
            failures.push(format!(
                "{}: expected {code} on line {line}, got [{}]",
                f.display(),
                got.join("; ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} {dir} programs without the marked diagnostic:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// Inputs the fuzzers once crashed on: each must now give diagnostics, not
/// a panic.
#[test]
fn fuzz_regressions_do_not_panic() {
    for f in programs("tests/fuzz_regressions") {
        let bytes = std::fs::read(&f).expect("readable");
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let c =
            janus_p4::driver::compile_source(&f.display().to_string(), text, &Options::default());
        let _ = c.render(false);
    }
}
