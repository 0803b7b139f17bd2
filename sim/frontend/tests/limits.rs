//! The front end on hostile input: it finishes, reports a bounded number
//! of diagnostics with bounded snippets, refuses oversized input and, in
//! the sandbox, reads no file. (Behaviour only: no test here measures
//! time.)

use janus_p4::diag::{Code, MAX_ERRORS};
use janus_p4::driver::{
    Compilation, IncludeAccess, MAX_SOURCE_BYTES, Options, compile_file, compile_source,
};

fn compile(text: String) -> Compilation {
    compile_source("hostile.p4", text, &Options::default())
}

fn codes(c: &Compilation) -> Vec<&'static str> {
    c.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

#[test]
fn a_run_of_nul_bytes_is_one_diagnostic() {
    let c = compile("\0".repeat(100_000));
    assert_eq!(codes(&c), ["E0001"]);
    let d = c.diagnostics.iter().next().expect("one");
    assert!(
        d.message.starts_with("100000 unexpected characters"),
        "{}",
        d.message
    );
    let out = c.render(false);
    assert!(out.len() < 1000, "{} bytes:\n{out}", out.len());
    assert!(!out.contains('\0'));
}

#[test]
fn a_long_line_of_dollars_has_a_bounded_snippet() {
    let c = compile("$".repeat(30_000));
    assert_eq!(codes(&c), ["E0001"]);
    let out = c.render(false);
    assert!(out.len() < 1000, "{} bytes:\n{out}", out.len());
    assert!(out.contains("hostile.p4:1:1"), "{out}");
    assert!(out.contains('…'), "{out}");

    // Runs apart are one diagnostic each, up to the cap.
    let c = compile("$ ".repeat(50_000));
    assert_eq!(c.diagnostics.len(), MAX_ERRORS);
    assert_eq!(c.diagnostics.error_count(), 50_000);
    let out = c.render(false);
    assert!(
        out.contains("note: 49900 more errors not shown"),
        "{}",
        &out[out.len() - 300..]
    );
    assert!(out.len() < 200 * 1000, "{} bytes", out.len());
}

#[test]
fn an_error_far_into_a_long_line_shows_its_surroundings() {
    let line = format!("{} $ {}", "x".repeat(50_000), "y".repeat(50_000));
    let c = compile(format!("const bit<8> A = 1;\n{line}\n"));
    let d = c
        .diagnostics
        .iter()
        .find(|d| d.code == Code::BadCharacter)
        .expect("the `$`");
    assert_eq!(d.message, "unexpected character `$`");
    let out = c.render(false);
    assert!(out.contains("hostile.p4:2:50002"), "{out}");
    assert!(out.contains("xx $ yy"), "{out}");
    assert!(out.len() < 4000, "{} bytes", out.len());
}

#[test]
fn long_tokens_are_quoted_short() {
    // A megabyte identifier where a declaration should start.
    let c = compile(format!("{} ;", "a".repeat(1 << 20)));
    assert!(c.has_errors());
    for d in c.diagnostics.iter() {
        assert!(d.message.len() < 600, "{} bytes", d.message.len());
    }
    assert!(c.render(false).len() < 4000);

    // A literal of 100,000 digits is refused before it is converted.
    let c = compile(format!("const bit<8> X = {};\n", "1".repeat(100_000)));
    assert_eq!(codes(&c), ["E0004"]);
    let d = c.diagnostics.iter().next().expect("one");
    assert!(d.message.contains("the limit is 10000"), "{}", d.message);
    // One at the limit is read.
    let c = compile(format!("const int X = {};\n", "1".repeat(10_000)));
    assert!(!c.has_errors(), "{}", c.render(false));
}

#[test]
fn unterminated_things_and_deep_nesting_stay_bounded() {
    for text in [
        "/*".repeat(50_000),
        "\"".to_string() + &"a".repeat(1 << 20),
        "\"\n".repeat(50_000),
        "(".repeat(100_000),
        "{".repeat(100_000),
        "#if 1\n".repeat(20_000),
        "#foo\n".repeat(20_000),
        "#if 0\n".to_string() + &"#else\n".repeat(20_000) + "#endif\n",
    ] {
        let c = compile(text);
        assert!(c.has_errors());
        assert!(c.diagnostics.len() <= MAX_ERRORS);
        let out = c.render(false);
        assert!(out.len() < 100 * 1000, "{} bytes", out.len());
    }
}

#[test]
fn many_definitions_still_compile_and_duplicates_are_found() {
    let fields: String = (0..5000).map(|i| format!("bit<8> f{i}; ")).collect();
    let members: Vec<String> = (0..5000).map(|i| format!("M{i}")).collect();
    let states: String = (0..3000)
        .map(|i| format!("state s{i} {{ transition s{}; }}\n", i + 1))
        .collect();
    let text = format!(
        "#include <core.p4>\nheader h_t {{ {fields} }}\nenum E {{ {} }}\nerror {{ {} }}\n\
         parser P(packet_in p) {{ state start {{ transition s0; }}\n{states}state s3000 {{ transition accept; }} }}\n",
        members.join(", "),
        members.join(", ")
    );
    let c = compile(text.clone());
    assert!(!c.has_errors(), "{}", c.render(false));
    let dup = text.replace("bit<8> f4999;", "bit<8> f0;");
    assert_eq!(codes(&compile(dup)), ["E0101"]);
    let dup = text.replace("M4999 }", "M0 }");
    assert_eq!(codes(&compile(dup)), ["E0101", "E0101"]);
    let dup = text.replace("state s3000", "state s0");
    assert_eq!(codes(&compile(dup))[0], "E0101");
}

#[test]
fn source_over_the_limit_is_refused_unread() {
    let c = compile("x".repeat(MAX_SOURCE_BYTES + 1));
    assert_eq!(codes(&c), ["E0005"]);
    assert!(c.ast.is_none() && c.preprocessed.is_empty());
    let out = c.render(false);
    assert!(out.contains("the limit is 16 MiB"), "{out}");
    // At the limit it is compiled.
    let c = compile(" ".repeat(MAX_SOURCE_BYTES));
    assert!(!c.has_errors());

    let path = std::env::temp_dir().join(format!("janus-limits-{}.p4", std::process::id()));
    let f = std::fs::File::create(&path).expect("create");
    f.set_len(MAX_SOURCE_BYTES as u64 + 1).expect("sparse");
    let c = compile_file(&path, &Options::default()).expect("a compilation");
    let _ = std::fs::remove_file(&path);
    assert_eq!(codes(&c), ["E0005"]);
}

#[test]
fn the_sandbox_never_shows_a_file_from_disk() {
    let dir = std::env::temp_dir().join(format!("janus-sandbox-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).expect("temp dir");
    let secret = dir.join("secret.txt");
    std::fs::write(&secret, "THE SECRET LINE\n").expect("write");
    let root = dir.join("sub/prog.p4").display().to_string();
    let sandbox = Options {
        include_access: IncludeAccess::BuiltinOnly,
        ..Options::default()
    };
    for include in [
        format!("\"{}\"", secret.display()),
        "\"../secret.txt\"".to_string(),
        "<../secret.txt>".to_string(),
        "\"/etc/shadow\"".to_string(),
    ] {
        let text = format!("#include {include}\nconst bit<8> A = 1;\n");
        // On the file system the file is read, and an error quotes it.
        let open = compile_source(&root, text.clone(), &Options::default());
        if include.starts_with('"') && include.contains("secret") {
            assert!(open.render(false).contains("THE SECRET LINE"), "{include}");
        }
        let c = compile_source(&root, text, &sandbox);
        assert_eq!(codes(&c), ["E0025"], "{include}");
        let out = c.render(false);
        assert!(!out.contains("SECRET"), "{out}");
        assert!(
            out.contains(&format!("`#include {include}` is not allowed")),
            "{out}"
        );
        assert_eq!(c.sources.len(), 1, "no file was loaded");
    }
    let c = compile_source(
        &root,
        "#include <core.p4>\n#include \"v1model.p4\"\n".into(),
        &sandbox,
    );
    assert!(!c.has_errors(), "{}", c.render(false));
    let _ = std::fs::remove_dir_all(&dir);
}
