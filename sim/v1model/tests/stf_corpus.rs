//! The project's STF corpus as data: every `X.stf` beside an `X.p4` in
//! the front end's valid corpus (`sim/frontend/tests/p4/valid`), in
//! `p4/examples` and in `p4/` (the shipped pipelines, whose tests are
//! named after them: `sdn*.stf` for `sdn.p4`) runs on v1model through
//! the STF runner, as `janus sim test` runs it, and passes. A failure
//! names its files and what differed; tests parked as `X.stf.pending` are
//! not run.
//!
//! Each test runs twice: on the compiled tier (as loaded) and on the
//! interpreter alone, the reference the compiled code is checked against.

use janus_engine::target::Target;
use janus_jit::Tier;
use janus_v1model::V1Switch;
use std::path::{Path, PathBuf};

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// The (program, test) pairs of `dir`: `X.stf` with `X.p4`, or with
/// the program whose name the test's starts with (`sdn_acl.stf` ->
/// `sdn.p4`) when `by_prefix`.
fn pairs(dir: &Path, by_prefix: bool) -> Vec<(PathBuf, PathBuf)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    let programs: Vec<&PathBuf> = files
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "p4"))
        .collect();
    let mut out = Vec::new();
    for stf in files
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "stf"))
    {
        let stem = stf.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        let program = programs.iter().find(|p| {
            let name = p.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            name == stem || (by_prefix && stem.starts_with(&format!("{name}_")))
        });
        if let Some(p) = program {
            out.push(((*p).clone(), stf.clone()));
        }
    }
    out
}

/// Why the test of `program` did not pass on `tier`, if it did not.
fn failure(program: &Path, stf: &Path, tier: Tier) -> Option<String> {
    let c = match janus_p4::driver::compile_file(program, &Default::default()) {
        Ok(c) => c,
        Err(e) => return Some(format!("cannot read: {e}")),
    };
    if c.has_errors() {
        return Some(format!("does not compile:\n{}", c.render(false)));
    }
    let mut sw = match c.ir.map(V1Switch::load) {
        Some(Ok(sw)) => sw,
        Some(Err(e)) => return Some(format!("does not load: {e}")),
        None => return Some("no program".into()),
    };
    sw.set_tier(tier);
    let text = match std::fs::read_to_string(stf) {
        Ok(t) => t,
        Err(e) => return Some(format!("cannot read the test: {e}")),
    };
    let test = match janus_stf::parse(&text) {
        Ok(t) => t,
        Err(errors) => return Some(format!("the test does not parse: {errors:?}")),
    };
    let target: &mut dyn Target = &mut sw;
    match janus_stf::runner::run(target, &test) {
        Ok(report) if report.passed() => None,
        Ok(report) => Some(report.failures.join("\n")),
        Err(e) => Some(format!("the test cannot run: {e}")),
    }
}

/// The failures of `cases`, on both tiers.
fn run_all(cases: &[(PathBuf, PathBuf)]) -> Vec<String> {
    [Tier::Compiled, Tier::Interpreter]
        .into_iter()
        .flat_map(|tier| {
            cases.iter().filter_map(move |(p, s)| {
                failure(p, s, tier)
                    .map(|why| format!("{} with {} ({tier:?}): {why}", p.display(), s.display()))
            })
        })
        .collect()
}

#[test]
fn every_stf_test_of_the_valid_corpus_passes_on_v1model() {
    let cases = pairs(&repo("sim/frontend/tests/p4/valid"), false);
    assert!(
        cases.len() >= 300,
        "the corpus shrank to {} tests",
        cases.len()
    );
    let failed = run_all(&cases);
    assert!(
        failed.is_empty(),
        "{} of {} failed:\n{}",
        failed.len(),
        cases.len(),
        failed.join("\n\n")
    );
}

#[test]
fn the_shipped_programs_and_examples_pass_their_stf_tests() {
    let mut cases = pairs(&repo("p4"), true);
    cases.extend(pairs(&repo("p4/examples"), false));
    let names: Vec<String> = cases
        .iter()
        .filter_map(|(_, s)| s.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    for want in [
        "sdn.stf",
        "sdn_acl.stf",
        "roce_paths.stf",
        "l3_router_acl.stf",
    ] {
        assert!(
            names.iter().any(|n| n == want),
            "{want} not found in {names:?}"
        );
    }
    let failed = run_all(&cases);
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

#[test]
fn the_shipped_pipeline_runs_mostly_compiled() {
    let c =
        janus_p4::driver::compile_file(&repo("p4/sdn.p4"), &Default::default()).expect("p4/sdn.p4");
    let sw = V1Switch::load(c.ir.expect("ir")).expect("loads");
    let coverage = sw.coverage();
    assert!(
        coverage.compiled > coverage.interpreted,
        "sdn.p4: {coverage:?}"
    );
}

#[test]
fn a_wrong_expectation_is_a_failure() {
    let dir = std::env::temp_dir().join(format!("janus-stf-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let program = repo("p4/examples/l3_router_acl.p4");
    let stf = repo("p4/examples/l3_router_acl.stf");
    let text = std::fs::read_to_string(&stf).expect("the example's test");
    // Every packet expected on port 2 now expected on port 9.
    let wrong: String = text
        .lines()
        .map(|l| match l.strip_prefix("expect 2 ") {
            Some(rest) => format!("expect 9 {rest}\n"),
            None => format!("{l}\n"),
        })
        .collect();
    let wrong_path = dir.join("wrong.stf");
    std::fs::write(&wrong_path, &wrong).expect("write the test");
    let why = failure(&program, &wrong_path, Tier::Compiled);
    let _ = std::fs::remove_dir_all(&dir);
    assert_ne!(wrong, text, "the example expects packets on port 2");
    assert!(why.is_some(), "a test expecting the wrong port passed");
}
