//! End-to-end tests of the `janus` command.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn janus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_janus"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("janus runs")
}

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("janus-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn check_clean_program_exits_zero() {
    let out = janus(&["p4", "check", &repo("p4/examples/l3_router_acl.p4")]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn check_reports_errors_with_location_and_snippet() {
    let path = repo("sim/frontend/tests/p4/invalid/err_width_mismatch_add.p4");
    let out = janus(&["p4", "check", &path]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error[E0201]"), "{err}");
    assert!(err.contains("err_width_mismatch_add.p4:7:15"), "{err}");
    assert!(err.contains("sum = a + b;"), "{err}");
    assert!(err.contains("1 error(s)"), "{err}");
}

#[test]
fn check_usage_and_io_problems_exit_two() {
    assert_eq!(
        janus(&["p4", "check", "/no/such/file.p4"]).status.code(),
        Some(2)
    );
    assert_eq!(janus(&["p4", "check"]).status.code(), Some(2));
    assert_eq!(janus(&["p4", "explain", "E9999"]).status.code(), Some(2));
}

#[test]
fn include_dirs_and_defines_reach_the_preprocessor() {
    let dir = temp_dir("include");
    std::fs::write(dir.join("lib.p4"), "const bit<8> FROM_LIB = 7;\n").expect("write");
    let prog = dir.join("prog.p4");
    std::fs::write(
        &prog,
        "#include \"lib.p4\"\n#ifndef WIDTH\n#error WIDTH must be defined\n#endif\nconst bit<WIDTH> X = FROM_LIB;\n",
    )
    .expect("write");
    let elsewhere = temp_dir("elsewhere");
    std::fs::rename(dir.join("lib.p4"), elsewhere.join("lib.p4")).expect("move");
    let prog = prog.display().to_string();
    let inc = elsewhere.display().to_string();
    // Without -I the include is missing; without -D the #error fires.
    let out = janus(&["p4", "check", &prog, "-D", "WIDTH=8"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("E0020"));
    let out = janus(&["p4", "check", &prog, "-I", &inc]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("E0022"));
    let out = janus(&["p4", "check", &prog, "-I", &inc, "-D", "WIDTH=8"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(elsewhere);
}

#[test]
fn compile_writes_p4info_and_a_loadable_pipeline() {
    let dir = temp_dir("compile");
    let p4info = dir.join("out.txtpb");
    let pipeline = dir.join("out.pipeline");
    let out = janus(&[
        "p4",
        "compile",
        &repo("p4/examples/l3_router_acl.p4"),
        "--p4info",
        &p4info.display().to_string(),
        "-o",
        &pipeline.display().to_string(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&p4info).expect("p4info written");
    assert!(text.contains("name: \"RouterIngress.ipv4_lpm\""), "{text}");
    let bytes = std::fs::read(&pipeline).expect("pipeline written");
    let loaded = janus_p4::pipeline::Pipeline::from_bytes(&bytes).expect("pipeline parses");
    assert_eq!(loaded.p4info, text);
    assert!(loaded.compile().expect("recompiles").program().is_some());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn compile_with_errors_writes_nothing() {
    let dir = temp_dir("compile-bad");
    let p4info = dir.join("out.txtpb");
    let out = janus(&[
        "p4",
        "compile",
        &repo("sim/frontend/tests/p4/invalid/err_width_mismatch_add.p4"),
        "--p4info",
        &p4info.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!p4info.exists());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn explain_prints_the_explanation() {
    let out = janus(&["p4", "explain", "e0201"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("E0201: operands of different widths"),
        "{text}"
    );
    let all = janus(&["p4", "explain"]);
    assert!(String::from_utf8_lossy(&all.stdout).lines().count() >= 40);
}

#[test]
fn demo_runs_the_shipped_programs() {
    let out = janus(&["demo"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("l3_router_acl.p4: ok"), "{text}");
    assert!(text.contains("table RouterIngress.ipv4_lpm"), "{text}");
}

#[test]
fn sim_test_passes_fails_and_rejects_bad_input() {
    let program = repo("p4/examples/l3_router_acl.p4");
    let stf = repo("p4/examples/l3_router_acl.stf");
    let out = janus(&["sim", "test", &program, &stf]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = temp_dir("stf");
    // A wrong expectation fails, showing both packets.
    let wrong = std::fs::read_to_string(&stf)
        .unwrap()
        .replace("expect 2 0000000000bb", "expect 2 0000000000cc");
    std::fs::write(dir.join("wrong.stf"), wrong).unwrap();
    let out = janus(&[
        "sim",
        "test",
        &program,
        &dir.join("wrong.stf").display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("expected 0000000000cc") && text.contains("received 0000000000bb"),
        "{text}"
    );
    // An unknown table and a malformed packet are bad input.
    std::fs::write(dir.join("table.stf"), "add nosuchtable k:1 a()\n").unwrap();
    let out = janus(&[
        "sim",
        "test",
        &program,
        &dir.join("table.stf").display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no table `nosuchtable`"));
    std::fs::write(dir.join("odd.stf"), "packet 1 abc\n").unwrap();
    let out = janus(&[
        "sim",
        "test",
        &program,
        &dir.join("odd.stf").display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1, column 10"));
    // A directory: every X.p4 with an X.stf.
    let out = janus(&["sim", "test", &repo("p4/examples")]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 passed, 0 failed"));
    let _ = std::fs::remove_dir_all(dir);
}
