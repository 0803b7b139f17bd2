//! Tests of the preprocessor.

use super::*;
use crate::diag::{Diagnostic, Severity};
use crate::includes;
use crate::source::Span;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The result of one preprocessor run.
struct Run {
    text: String,
    map: OffsetMap,
    sources: SourceMap,
    diags: Vec<Diagnostic>,
    root: FileId,
}

impl Run {
    fn codes(&self) -> Vec<&'static str> {
        self.diags.iter().map(|d| d.code.as_str()).collect()
    }

    fn errors(&self) -> Vec<&Diagnostic> {
        self.diags.iter().filter(|d| d.is_error()).collect()
    }

    /// The output text with all whitespace removed.
    fn squashed(&self) -> String {
        squash(&self.text)
    }

    /// Where the `nth` occurrence of `needle` in the output comes from:
    /// file name, line, column.
    fn origin_of(&self, needle: &str, nth: usize) -> (String, usize, usize) {
        let (at, _) = self
            .text
            .match_indices(needle)
            .nth(nth)
            .unwrap_or_else(|| panic!("`{needle}` not in output:\n{}", self.text));
        let span = Span::new(at as u32, (at + needle.len()) as u32);
        let fs = self.map.resolve(span).expect("offset maps somewhere");
        let file = self.sources.file(fs.file);
        let (line, col) = file.line_col(fs.lo);
        (file.name.clone(), line, col)
    }

    /// The source text the `nth` occurrence of `needle` in the output maps to.
    fn source_of(&self, needle: &str, nth: usize) -> String {
        let (at, _) = self.text.match_indices(needle).nth(nth).expect("needle");
        let span = Span::new(at as u32, (at + needle.len()) as u32);
        let fs = self.map.resolve(span).expect("offset maps somewhere");
        self.sources.file(fs.file).text[fs.lo as usize..fs.hi as usize].to_string()
    }
}

fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

fn run_full(src: &str, path: Option<PathBuf>, config: &PreprocessConfig) -> Run {
    let mut sources = SourceMap::new();
    let name = path
        .as_ref()
        .map_or("test.p4".to_string(), |p| p.display().to_string());
    let root = sources.add(name, path, src.to_string());
    let mut diags = Diagnostics::new();
    let out = preprocess(&mut sources, root, config, &mut diags);
    check_map_invariants(&out, &sources);
    Run {
        text: out.text,
        map: out.map,
        sources,
        diags: diags.into_vec(),
        root,
    }
}

fn run(src: &str) -> Run {
    run_full(src, None, &PreprocessConfig::default())
}

/// Segments are in order, inside the output and inside their files, and
/// verbatim ones really are copies.
fn check_map_invariants(out: &Preprocessed, sources: &SourceMap) {
    let mut last_end = 0;
    for s in out.map.segments() {
        assert!(s.out_lo >= last_end, "segments out of order");
        last_end = s.out_lo + s.out_len;
        assert!(last_end as usize <= out.text.len());
        let file = &sources.file(s.file).text;
        assert!((s.src_lo + s.src_len) as usize <= file.len());
        if s.out_len == s.src_len && !out.text.is_empty() {
            let o = &out.text.as_bytes()[s.out_lo as usize..last_end as usize];
            let f = &file.as_bytes()[s.src_lo as usize..(s.src_lo + s.src_len) as usize];
            if o != f {
                // A macro expansion may have the invocation's length by chance.
                assert!(
                    f.iter().any(|&c| lex::is_ident_start(c)),
                    "verbatim mismatch"
                );
            }
        }
    }
}

/// A scratch directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir =
            std::env::temp_dir().join(format!("janus-pp-test-{}-{n}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.0.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("create dir");
        }
        std::fs::write(&p, text).expect("write file");
        p
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.0.join(rel)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run_file_in(dir: &TempDir, root: &str, config: &PreprocessConfig) -> Run {
    let path = dir.path(root);
    let text = std::fs::read_to_string(&path).expect("read root");
    run_full(&text, Some(path), config)
}

fn with_dirs(dirs: &[&Path]) -> PreprocessConfig {
    PreprocessConfig {
        include_dirs: dirs.iter().map(|d| d.to_path_buf()).collect(),
        ..PreprocessConfig::default()
    }
}

// ---- plain text, comments, strings ----

#[test]
fn plain_text_is_copied_with_an_identity_map() {
    let src = "header h_t {\n  bit<8> f; // c\n}\n/* block\n comment */ x;\n";
    let r = run(src);
    assert_eq!(r.text, src);
    assert!(r.diags.is_empty());
    assert_eq!(r.map.segments().len(), 1);
    assert_eq!(r.map.segments()[0].src_len as usize, src.len());
}

#[test]
fn macros_are_not_expanded_in_strings_or_comments() {
    let r = run("#define X 1\n\"X\" // X\n/* X */ X\n");
    assert_eq!(r.text, "\n\"X\" // X\n/* X */ 1\n");
}

#[test]
fn hash_inside_multiline_comment_is_not_a_directive() {
    let r = run("a /* start\n#define X 1\n#error no\n*/ X\n");
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    assert_eq!(r.text, "a /* start\n#define X 1\n#error no\n*/ X\n");
}

#[test]
fn comment_at_end_of_file_is_kept() {
    let r = run("a; /* last */");
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    assert_eq!(r.text, "a; /* last */");
}

#[test]
fn unterminated_block_comment_is_e0002() {
    let r = run("a;\n/* never closed\n#define X\n");
    assert_eq!(r.codes(), ["E0002"]);
    let span = r.diags[0].primary_span().expect("span");
    assert_eq!(span.lo, 3);
    assert_eq!(r.text, "a;\n");
}

// ---- directives in general ----

#[test]
fn directive_lines_become_empty_lines() {
    let r =
        run("  #  define A 1\nA\n#undef A\nA\n#pragma foo bar\n#line 7\n# 12 \"x.p4\"\n#\nend\n");
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    assert_eq!(r.text, "\n1\n\nA\n\n\n\n\nend\n");
}

#[test]
fn directive_trailing_comments_do_not_break_it() {
    let src = "#define A 1 // one\n#define B 2 /* two\n spans lines */\n#ifdef A /* c */\nA B\n#endif // done\n";
    let r = run(src);
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    assert_eq!(
        r.text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .collect::<Vec<_>>(),
        ["1 2"]
    );
    // The newline inside the directive's comment is kept: same line count.
    assert_eq!(r.text.lines().count(), src.lines().count());
}

#[test]
fn unknown_directive_is_e0021() {
    let r = run("#frobnicate x\n#if 0\n#also_unknown_but_skipped\n#endif\nok\n");
    assert_eq!(r.codes(), ["E0021"]);
    let span = r.diags[0].primary_span().expect("span");
    assert_eq!((span.lo, span.hi), (1, 11));
    assert!(r.text.ends_with("ok\n"));
}

#[test]
fn error_and_warning_directives() {
    let r = run("#warning careful here\n#if 0\n#error not reached\n#endif\n#error stop now\n");
    assert_eq!(r.codes(), ["E0022", "E0022"]);
    assert_eq!(r.diags[0].severity, Severity::Warning);
    assert!(r.diags[0].message.contains("careful here"));
    assert_eq!(r.diags[1].severity, Severity::Error);
    assert!(r.diags[1].message.contains("stop now"));
    let span = r.diags[1].primary_span().expect("span");
    let (line, col) = r.sources.file(r.root).line_col(span.lo);
    assert_eq!((line, col), (5, 1));
}

#[test]
fn line_continuations_join_lines_and_keep_line_structure() {
    let src = "#define LONG(a) \\\n   (a + \\\n    1)\nx = LONG(2);\ny = ab\\\ncd;\nlast;\n";
    let r = run(src);
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    assert!(r.text.contains("x = (2 + 1);"), "{}", r.text);
    assert!(r.text.contains("y = abcd;"), "{}", r.text);
    assert_eq!(r.origin_of("last", 0), ("test.p4".to_string(), 7, 1));
    assert_eq!(r.origin_of("cd", 0), ("test.p4".to_string(), 6, 1));
    let line_of_last = r.text[..r.text.find("last").expect("last")]
        .matches('\n')
        .count()
        + 1;
    assert_eq!(line_of_last, 7);
}

// ---- conditionals ----

#[test]
fn ifdef_ifndef_else_endif() {
    let src = "#define YES\n#ifdef YES\na\n#else\nb\n#endif\n#ifndef YES\nc\n#else\nd\n#endif\n#ifdef NO\ne\n#endif\n";
    let r = run(src);
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    assert_eq!(r.squashed(), "ad");
    assert_eq!(r.text.lines().count(), src.lines().count());
}

#[test]
fn if_elif_expressions() {
    let src = "\
#define V 3
#define TWICE(x) ((x) * 2)
#if V == 1
one
#elif TWICE(V) == 6 && defined(V) && !defined NOPE
six
#elif 1
never
#else
not
#endif
#if (0x10 >> 2) == 4 ? UNDEFINED_NAME == 0 : 0
hexok
#endif
#if 1
#elif 1/0
#endif
#if -1 < 0 && 010 == 8 && 5 % 3 == 2 && (1 | 2 ^ 3 & 4) == 3 && ~0 == -1
ops
#endif
";
    let r = run(src);
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    assert_eq!(r.squashed(), "sixhexokops");
}

#[test]
fn nested_conditionals_and_skipped_groups() {
    let src = "\
#if 0
  #if 1
  a
  #else
  b
  #endif
  #error skipped
  #include \"nowhere.p4\"
#elif 0
c
#else
  #ifdef __LINE__
  d
  #endif
  /* #endif in a comment */
  \"#endif in a string\"
#endif
e
";
    let r = run(src);
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    assert_eq!(r.squashed(), "d/*#endifinacomment*/\"#endifinastring\"e");
}

#[test]
fn unmatched_else_endif_and_unterminated_if_are_e0021() {
    let r = run("#else\n#endif\n#elif 1\nx\n#if 1\ny\n#ifdef Z\n");
    assert_eq!(r.codes(), ["E0021"; 5]);
    // The last two point at the open `#if`s, innermost first or not; check both lines.
    let mut lines: Vec<usize> = r.diags[3..]
        .iter()
        .map(|d| {
            r.sources
                .file(r.root)
                .line_col(d.primary_span().expect("span").lo)
                .0
        })
        .collect();
    lines.sort_unstable();
    assert_eq!(lines, [5, 7]);
    assert!(r.text.contains('y'));
}

#[test]
fn bad_if_expressions_are_e0021() {
    for expr in [
        "1 / 0", "(1", "1 +", "", "defined", "defined(", "8w5", "\"s\"", "1 2",
    ] {
        let r = run(&format!("#if {expr}\nx\n#endif\ny\n"));
        assert_eq!(r.codes(), ["E0021"], "for `{expr}`");
        assert_eq!(r.squashed(), "y", "for `{expr}`");
    }
    let r = run("#else extra\n#elif\n");
    assert_eq!(r.codes(), ["E0021", "E0021"]);
}

#[test]
fn else_after_else_is_e0021() {
    let r = run("#if 0\na\n#else\nb\n#else\nc\n#endif\n");
    assert_eq!(r.codes(), ["E0021"]);
    assert_eq!(r.squashed(), "b");
}

// ---- macros ----

#[test]
fn object_like_macros() {
    let r = run("#define W 8\n#define T bit<W>\n#define EMPTY\nT x = W;EMPTY y\n");
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    assert_eq!(r.text, "\n\n\nbit<8> x = 8; y\n");
}

#[test]
fn function_like_macros() {
    let r = run(
        "#define ADD(a, b) ((a) + (b))\n#define ZERO() 0\n#define ID(x) x\nADD(1, ZERO()) ID(ADD)(2, ID(3))\n",
    );
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    assert_eq!(r.squashed(), "((1)+(0))((2)+(3))");
}

#[test]
fn function_like_macro_without_parens_is_left_alone() {
    let r = run("#define F(x) [x]\nint F; F = 1; F\n(2)\n");
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    assert_eq!(r.squashed(), "intF;F=1;[2]");
}

#[test]
fn arguments_with_nested_parens_commas_and_several_lines() {
    let src = "#define PAIR(a, b) {a; b}\nPAIR(f(1, 2), (3,\n   4))\nafter;\n";
    let r = run(src);
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    assert!(r.text.starts_with("\n{f(1, 2); (3, 4)}"), "{}", r.text);
    // Line structure is kept: `after` is still on line 4.
    assert_eq!(r.text.lines().nth(3), Some("after;"));
}

#[test]
fn self_referential_macros_do_not_loop() {
    let src = "#define foo foo + 1\n#define a b\n#define b a\n#define f(x) f(x) + x\nfoo; a; b; f(f(2));\n";
    let r = run(src);
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    assert_eq!(r.squashed(), "foo+1;a;b;f(f(2)+2)+f(2)+2;");
}

#[test]
fn stringify_and_paste() {
    let src = "\
#define STR(x) #x
#define XSTR(x) STR(x)
#define CAT(a, b) a ## b
#define XCAT(a, b) CAT(a, b)
#define N 42
STR(a  +  \"q\")
XSTR(N)
CAT(hdr_, N)
XCAT(hdr_, N)
CAT(, x) CAT(y, ) [CAT(,)]
CAT(<, <) CAT(8w, 5)
";
    let r = run(src);
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    let lines: Vec<&str> = r.text.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(
        lines,
        [
            r#""a + \"q\"""#,
            "\"42\"",
            "hdr_N",
            "hdr_42",
            "x y []",
            "<< 8w5"
        ]
    );
}

#[test]
fn variadic_macros() {
    let src = "#define LOG(fmt, ...) log(fmt, __VA_ARGS__)\n#define ALL(...) [__VA_ARGS__]\n#define NAMED(args...) (args)\nLOG(\"a\", 1, (2, 3)) ALL() ALL(x, y) NAMED(p, q)\n";
    let r = run(src);
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    assert_eq!(r.squashed(), "log(\"a\",1,(2,3))[][x,y](p,q)");
}

#[test]
fn c_standard_examples_expand_as_specified() {
    // The examples of C99 6.10.3.5 (less its character constants).
    let src = "\
#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(hello), str() };
";
    let r = run(src);
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    let expected = "f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);
f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);
int i[] = { 1, 23, 4, 5, };
char c[2][6] = { \"hello\", \"\" };";
    assert_eq!(r.squashed(), squash(expected));
}

#[test]
fn c_standard_stringify_example() {
    let src = "\
#define str(s) # s
#define xstr(s) str(s)
#define debug(s, t) printf(\"x\" # s \"= %d, x\" # t \"= %s\", \\
 x ## s, x ## t)
#define INCFILE(n) vers ## n
#define glue(a, b) a ## b
#define xglue(a, b) glue(a, b)
#define HIGHLOW \"hello\"
#define LOW LOW \", world\"
debug(1, 2);
fputs(str(strncmp(\"abc\\0d\", \"abc\") // this goes away
 == 0) str(: @\\n), s);
xstr(INCFILE(2).h)
glue(HIGH, LOW);
xglue(HIGH, LOW)
";
    let r = run(src);
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    let expected = r#"printf("x" "1" "= %d, x" "2" "= %s", x1, x2);
fputs("strncmp(\"abc\\0d\", \"abc\") == 0" ": @\n", s);
"vers2.h"
"hello";
"hello" ", world""#;
    assert_eq!(r.squashed(), squash(expected));
}

#[test]
fn macro_body_comments_are_stripped() {
    let r = run("#define A 1 /* one */ + /* two */ 2 // end\nA\n");
    assert_eq!(r.text, "\n1 + 2\n");
}

#[test]
fn file_and_line_are_predefined() {
    let r = run(
        "a\n__LINE__ __FILE__\n#define WHERE __LINE__\n\nWHERE\n#if __LINE__ == 6\nsix\n#endif\n",
    );
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    assert_eq!(r.squashed(), "a2\"test.p4\"5six");
}

#[test]
fn expansion_does_not_glue_to_following_words() {
    let r = run("#define F(x) x\n#define E\nF(a)F(b) F(c)d 1E+2\n");
    assert_eq!(r.text, "\n\na b c d 1E+2\n");
}

#[test]
fn macro_argument_errors_are_e0023() {
    let r = run(
        "#define F(a, b) a b\n#define G() g\n#define V(a, ...) a\nF(1) G(2) V() F(1, 2, 3)\nok\n",
    );
    assert_eq!(r.codes(), ["E0023"; 3]);
    assert!(
        r.diags[0]
            .message
            .contains("takes 2 arguments but 1 was given")
    );
    assert!(r.text.contains("ok"));
    let span = r.diags[0].primary_span().expect("span");
    assert_eq!(r.sources.file(r.root).line_col(span.lo), (4, 1));

    let r = run("#define F(a) a\nF(1, (2)\n#define X\nafter\n");
    assert_eq!(r.codes(), ["E0023"]);
    assert!(r.diags[0].message.contains("unterminated"));
    assert!(r.text.contains("after"));
}

#[test]
fn malformed_defines_are_e0021() {
    for bad in [
        "#define",
        "#define 1 x",
        "#define F(a, a) a",
        "#define F(a b) a",
        "#define F(a",
        "#define H(x) # y",
        "#define P ## x",
        "#define Q x ##",
        "#define defined 1",
        "#undef",
    ] {
        let r = run(&format!("{bad}\n"));
        assert_eq!(r.codes(), ["E0021"], "for `{bad}`");
    }
}

#[test]
fn runaway_expansion_is_cut_off() {
    let mut src = String::new();
    for i in 0..40 {
        src.push_str(&format!("#define M{i} M{} M{}\n", i + 1, i + 1));
    }
    src.push_str("M0\nafter\n");
    let r = run(&src);
    assert_eq!(r.codes(), ["E0023"]);
    assert!(r.text.contains("after"));

    let deep = format!(
        "#define F(x) x\n{}1{}\n",
        "F(".repeat(1000),
        ")".repeat(1000)
    );
    let r = run(&deep);
    assert_eq!(r.codes(), ["E0023"]);

    // A long chain stops at the work limit, before copying the rest of the
    // line at each of the first `MAX_ARG_DEPTH` levels.
    let long = format!(
        "#define F(x) x
{}1{}
",
        "F(".repeat(30_000),
        ")".repeat(30_000)
    );
    let r = run(&long);
    assert_eq!(r.codes(), ["E0023"]);
}

#[test]
fn command_line_defines() {
    let config = PreprocessConfig {
        include_dirs: Vec::new(),
        defines: vec![
            ("FLAG".into(), None),
            ("WIDTH".into(), Some("16".into())),
            ("SQ(x)".into(), Some("((x)*(x))".into())),
            ("1bad".into(), None),
        ],
        ..PreprocessConfig::default()
    };
    let r = run_full("#if FLAG\nbit<WIDTH> a = SQ(3);\n#endif\n", None, &config);
    assert_eq!(r.codes(), ["E0021"]);
    assert_eq!(r.squashed(), "bit<16>a=((3)*(3));");
}

// ---- includes ----

#[test]
fn builtin_includes_are_added_once() {
    let r = run("#include <core.p4>\n#include \"core.p4\"\n#include <v1model.p4>\n");
    assert!(r.errors().is_empty(), "{:?}", r.diags);
    let names: Vec<&str> = (0..r.sources.len())
        .map(|i| r.sources.file(FileId(i as u32)).name.as_str())
        .collect();
    assert_eq!(names, ["test.p4", "<core.p4>", "<v1model.p4>"]);
    let core = r.sources.file(FileId(1));
    assert!(core.path.is_none());
    // Guarded: core.p4 appears once.
    let core_text = includes::builtin("core.p4").expect("core.p4");
    let n = core_text.matches("PacketTooShort").count();
    assert_eq!(r.text.matches("PacketTooShort").count(), n);
    let (file, _, _) = r.origin_of("PacketTooShort", 0);
    assert_eq!(file, "<core.p4>");
}

#[test]
fn existing_builtin_file_in_source_map_is_reused() {
    let mut sources = SourceMap::new();
    let core = sources.add("<core.p4>", None, "pre_loaded\n".to_string());
    let root = sources.add("r.p4", None, "#include <core.p4>\n".to_string());
    let mut diags = Diagnostics::new();
    let out = preprocess(&mut sources, root, &PreprocessConfig::default(), &mut diags);
    assert_eq!(sources.len(), 2);
    assert_eq!(out.text, "pre_loaded\n\n");
    assert_eq!(out.map.segments()[0].file, core);
}

#[test]
fn include_search_order() {
    let dir = TempDir::new();
    dir.write("src/main.p4", "#include \"a.p4\"\n#include <a.p4>\n#include \"b.p4\"\n#include <core.p4>\n#include \"sub/c.p4\"\n");
    dir.write("src/a.p4", "local_a\n");
    dir.write("inc1/a.p4", "inc1_a\n");
    dir.write("inc2/a.p4", "inc2_a\n");
    dir.write("inc2/b.p4", "inc2_b\n");
    dir.write("inc2/core.p4", "shadowed_core\n");
    dir.write("src/sub/c.p4", "#include \"d.p4\"\n");
    dir.write("src/sub/d.p4", "next_to_c\n");
    let config = with_dirs(&[&dir.path("inc1"), &dir.path("inc2")]);
    let r = run_file_in(&dir, "src/main.p4", &config);
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    assert_eq!(r.squashed(), "local_ainc1_ainc2_bshadowed_corenext_to_c");
    let (file, line, col) = r.origin_of("inc2_b", 0);
    assert!(file.ends_with("b.p4"), "{file}");
    assert_eq!((line, col), (1, 1));
}

#[test]
fn include_not_found_is_e0020_at_the_name() {
    let r =
        run("x;\n#include \"missing.p4\"\n#include <gone.p4>\n#include nothing\n#include\ny;\n");
    assert_eq!(r.codes(), ["E0020", "E0020", "E0021", "E0021"]);
    let span = r.diags[0].primary_span().expect("span");
    assert_eq!(
        &r.sources.file(r.root).text[span.lo as usize..span.hi as usize],
        "\"missing.p4\""
    );
    assert_eq!(r.squashed(), "x;y;");
}

#[test]
fn computed_include() {
    let r = run("#define ARCH <core.p4>\n#include ARCH\n");
    assert!(r.errors().is_empty(), "{:?}", r.diags);
    assert!(r.text.contains("PacketTooShort"));
}

#[test]
fn include_guards_and_pragma_once() {
    let dir = TempDir::new();
    dir.write("main.p4", "#include \"g.p4\"\n#include \"g.p4\"\n#include \"o.p4\"\n#include \"./o.p4\"\nuse(G, O);\n");
    dir.write(
        "g.p4",
        "#ifndef G_P4\n#define G_P4\n#define G guarded\nguard_body\n#endif\n",
    );
    dir.write("o.p4", "#pragma once\n#define O once\nonce_body\n");
    let r = run_file_in(&dir, "main.p4", &PreprocessConfig::default());
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    assert_eq!(r.squashed(), "guard_bodyonce_bodyuse(guarded,once);");
    // main, g, o: `./o.p4` is the same file.
    assert_eq!(r.sources.len(), 3);
}

#[test]
fn macros_carry_across_includes() {
    let dir = TempDir::new();
    dir.write(
        "main.p4",
        "#define BEFORE 1\n#include \"defs.p4\"\nAFTER\n#undef BEFORE\nBEFORE\n",
    );
    dir.write("defs.p4", "#define AFTER 2\nBEFORE\n");
    let r = run_file_in(&dir, "main.p4", &PreprocessConfig::default());
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    assert_eq!(r.squashed(), "12BEFORE");
}

#[test]
fn include_depth_is_e0024() {
    let dir = TempDir::new();
    dir.write("self.p4", "#include \"self.p4\"\nx\n");
    let r = run_file_in(&dir, "self.p4", &PreprocessConfig::default());
    assert_eq!(r.codes(), ["E0024"]);
    assert_eq!(r.text.matches('x').count(), MAX_INCLUDE_DEPTH);
    // The root is reused, not loaded again.
    assert_eq!(r.sources.len(), 1);
}

#[test]
fn conditionals_do_not_cross_files() {
    let dir = TempDir::new();
    dir.write("main.p4", "#include \"open.p4\"\nvisible\n#endif\n");
    dir.write("open.p4", "#if 1\n");
    let r = run_file_in(&dir, "main.p4", &PreprocessConfig::default());
    assert_eq!(r.codes(), ["E0021", "E0021"]);
    let first = r.diags[0].primary_span().expect("span");
    assert!(r.sources.file(first.file).name.ends_with("open.p4"));
    assert!(r.text.contains("visible"));
}

// ---- the offset map ----

#[test]
fn offsets_map_back_after_includes_and_expansions() {
    let dir = TempDir::new();
    dir.write(
        "inc/defs.p4",
        "// defs\n#define ADD(a, b) \\\n    ((a) + (b))\nconst bit<8> K = 1;\n",
    );
    dir.write(
        "main.p4",
        "#include <defs.p4>\nx = ADD(1,\n        2); y = ADD(3, 4);\n  target_token;\n",
    );
    let config = with_dirs(&[&dir.path("inc")]);
    let r = run_file_in(&dir, "main.p4", &config);
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    let (file, line, col) = r.origin_of("K", 0);
    assert!(file.ends_with("defs.p4"), "{file}");
    assert_eq!((line, col), (4, 14));
    let (file, line, col) = r.origin_of("target_token", 0);
    assert!(file.ends_with("main.p4"), "{file}");
    assert_eq!((line, col), (4, 3));
    let (_, line, col) = r.origin_of("y", 0);
    assert_eq!((line, col), (3, 13));
    // A token of an expansion maps to the whole invocation.
    assert_eq!(r.source_of("((1)", 0), "ADD(1,\n        2)");
    assert_eq!(r.source_of("(4)", 0), "ADD(3, 4)");
    // The output keeps each file's lines.
    let out_line = r.text[..r.text.find("target_token").expect("token")]
        .matches('\n')
        .count();
    let defs_lines = 4;
    assert_eq!(out_line, defs_lines + 3);
}

// ---- robustness ----

#[test]
fn arbitrary_input_never_panics() {
    let nasty = [
        "",
        "#",
        "#\n#\n",
        "\\",
        "\\\n",
        "#define",
        "#define F(",
        "#define F(x) #",
        "#define F(...) __VA_ARGS__\nF(",
        "#if",
        "#if (((((",
        "#if 1 ? 2\n#endif",
        "#elif\n#else\n#endif\n#endif",
        "#include",
        "#include \"",
        "#include <",
        "#include <>",
        "#include \"\"",
        "/*",
        "/* */ /*",
        "\"unterminated\n#define X",
        "#define X X X\nX",
        "#define F(x) F(F(x))\nF(F(F(1)))",
        "#define A(x) B(x\n#define B(x) x)\nA(1)",
        "#define P(a, b) a ## b\nP(/, /) P(\", \") P(#, #) P(., .)",
        "#define S(x) #x\nS(\"\\\") S('\\'') S(\\)",
        "é#define ü 1\nü ß\u{0}\u{7f}\u{ffff}",
        "\r\n#define W 1\r\nW\r\n#if W\r\n#endif\r\n",
        "#define F(x,...) __VA_ARGS__ ## x\nF(1) F(,) F(,,,)",
        "#ifdef\n#ifndef 3\n#endif\n#endif",
        "#if defined(\n#endif",
        "#if 1 / 0 || 0x\n#endif",
        "#if -9223372036854775808 / -1\n#endif",
        "#undef __LINE__\n#define __FILE__ 2\n__LINE__",
        "#pragma\n#pragma once once\n#line\n#error\n#warning",
        "#define EMPTY()\nEMPTY EMPTY() EMPTY(()) EMPTY(,)",
        "#define a(x) x\na(a(a(a(a(a(a(a(a(a(a(a(",
    ];
    for src in nasty {
        let r = run(src);
        let _ = r.diags.len();
        // Also every byte-prefix that is valid UTF-8.
        for cut in 0..src.len() {
            if let Some(prefix) = src.get(..cut) {
                let _ = run(prefix);
            }
        }
    }
}

#[test]
fn random_bytes_never_panic() {
    // A tiny deterministic generator over an alphabet of interesting pieces.
    let pieces = [
        "#",
        "define ",
        "if ",
        "ifdef ",
        "endif",
        "else",
        "elif ",
        "include ",
        "\"",
        "<",
        ">",
        "(",
        ")",
        ",",
        "##",
        "/*",
        "*/",
        "//",
        "\n",
        "\\",
        " ",
        "A",
        "F",
        "x",
        "1",
        "0",
        "...",
        "__VA_ARGS__",
        "defined",
        "é",
    ];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..300 {
        let mut src = String::from("#define F(x, y) x ## y F(x)\n#define A F(A, 1)\n");
        for _ in 0..60 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            src.push_str(pieces[(state % pieces.len() as u64) as usize]);
        }
        let _ = run(&src);
    }
}

#[test]
fn large_program_is_fast() {
    let mut src =
        String::from("#include <core.p4>\n#define WIDTH 32\n#define FIELD(n) bit<WIDTH> n;\n");
    for i in 0..5000 {
        match i % 5 {
            0 => src.push_str(&format!("header h{i}_t {{ FIELD(f{i}) bit<8> g; }}\n")),
            1 => src.push_str("// a comment line with words in it\n"),
            2 => src.push_str("    x = y + z * (a - b); /* block */\n"),
            3 => src.push_str("#ifdef WIDTH\n"),
            _ => src.push_str("#endif\n"),
        }
    }
    let r = run(&src);
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    assert_eq!(r.text.matches("bit<32> f").count(), 1000);
}

// ---- the sandbox (IncludeAccess::BuiltinOnly) ----

fn sandbox() -> PreprocessConfig {
    PreprocessConfig {
        include_access: IncludeAccess::BuiltinOnly,
        ..PreprocessConfig::default()
    }
}

/// Every message and label text of a run.
fn all_text(r: &Run) -> String {
    r.diags
        .iter()
        .map(|d| {
            let labels: Vec<&str> = d.labels.iter().map(|l| l.message.as_str()).collect();
            format!("{} {} {}", d.message, labels.join(" "), d.notes.join(" "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn sandbox_resolves_only_builtin_files() {
    let dir = TempDir::new();
    dir.write("core.p4", "LOCAL_CORE_SECRET\n");
    let secret = dir.write("secret.txt", "TOP SECRET LINE\n");
    dir.write("sub/inner.p4", "INNER_SECRET\n");
    let root = dir.write("main.p4", "#include \"core.p4\"\n");

    // On the file system, `"core.p4"` is the file next to the program...
    let r = run_file_in(&dir, "main.p4", &PreprocessConfig::default());
    assert!(r.text.contains("LOCAL_CORE_SECRET"), "{}", r.text);
    // ... in the sandbox it is the built-in file, whatever is on disk.
    let r = run_full("#include \"core.p4\"\n", Some(root.clone()), &sandbox());
    assert!(r.diags.is_empty(), "{:?}", r.codes());
    assert!(!r.text.contains("LOCAL_CORE_SECRET"));
    assert!(r.text.contains("packet_in"));
    for name in [
        "v1model.p4",
        "psa.p4",
        "bmv2/psa.p4",
        "pna.p4",
        "ebpf_model.p4",
    ] {
        let r = run_full(
            &format!("#include <{name}>\n"),
            Some(root.clone()),
            &sandbox(),
        );
        assert!(r.diags.is_empty(), "{name}: {:?}", r.codes());
    }

    let abs = secret.display().to_string();
    let refused = [
        format!("#include \"{abs}\"\n"),
        format!("#include <{abs}>\n"),
        "#include \"secret.txt\"\n".to_string(),
        "#include <secret.txt>\n".to_string(),
        "#include \"../secret.txt\"\n".to_string(),
        "#include \"sub/inner.p4\"\n".to_string(),
        "#include \"./core.p4\"\n".to_string(),
        "#include \"sub/../core.p4\"\n".to_string(),
        "#include \"/etc/shadow\"\n".to_string(),
        "#include \"/etc/passwd\"\n".to_string(),
        format!("#define F \"{abs}\"\n#include F\n"),
    ];
    for src in &refused {
        for config in [sandbox(), {
            // `-I` directories are not searched either.
            let mut c = sandbox();
            c.include_dirs.push(dir.0.clone());
            c
        }] {
            let r = run_full(src, Some(root.clone()), &config);
            assert_eq!(r.codes(), ["E0025"], "{src}");
            let text = all_text(&r);
            assert!(
                text.contains("may include only the built-in architecture files"),
                "{text}"
            );
            for leak in ["SECRET", "root:"] {
                assert!(
                    !text.contains(leak) && !r.text.contains(leak),
                    "{src}: {text}"
                );
            }
        }
    }
    // The message names the include as written.
    let r = run_full(
        "#include \"../secret.txt\"\n",
        Some(root.clone()),
        &sandbox(),
    );
    assert!(
        all_text(&r).contains("`#include \"../secret.txt\"`"),
        "{}",
        all_text(&r)
    );
    let r = run_full("#include <x/y.p4>\n", Some(root), &sandbox());
    assert!(
        all_text(&r).contains("`#include <x/y.p4>`"),
        "{}",
        all_text(&r)
    );
}

// ---- include guards ----

#[test]
fn a_guarded_file_is_not_read_again() {
    let dir = TempDir::new();
    dir.write(
        "g.p4",
        "// guarded\n#ifndef G_P4\n#define G_P4\ng_body_text\n#endif /* G_P4 */\n",
    );
    dir.write("u.p4", "u_body_text\n");
    dir.write(
        "after.p4",
        "#ifndef A_P4\n#define A_P4\na_text\n#endif\ntrailing_text\n",
    );
    dir.write(
        "els.p4",
        "#ifndef E_P4\n#define E_P4\ne_first\n#else\ne_again\n#endif\n",
    );
    dir.write(
        "main.p4",
        "#include \"g.p4\"\n#include \"g.p4\"\n#include \"u.p4\"\n#include \"u.p4\"\n\
         #include \"after.p4\"\n#include \"after.p4\"\n#include \"els.p4\"\n#include \"els.p4\"\n\
         #include \"els.p4\"\n#undef G_P4\n#include \"g.p4\"\n",
    );
    let r = run_file_in(&dir, "main.p4", &PreprocessConfig::default());
    assert!(r.diags.is_empty(), "{:?}", r.codes());
    let count = |s: &str| r.text.matches(s).count();
    // Read again once its macro is undefined (its comment is copied
    // each time it is read).
    assert_eq!(count("g_body_text"), 2);
    assert_eq!(count("// guarded"), 2);
    assert_eq!(count("u_body_text"), 2);
    assert_eq!(count("a_text"), 1);
    assert_eq!(count("trailing_text"), 2);
    assert_eq!(count("e_first"), 1);
    assert_eq!(count("e_again"), 2);

    // A built-in file included many times costs one reading.
    let src = "#include <psa.p4>\n".repeat(20_000);
    let r = run_full(&src, None, &sandbox());
    assert!(r.diags.is_empty(), "{:?}", r.codes());
    assert!(r.text.len() < includes::builtin("psa.p4").expect("psa").len() + 30_000);
}

// ---- size limits ----

#[test]
fn an_include_over_the_size_limit_is_not_read() {
    let dir = TempDir::new();
    let big = dir.path("big.p4");
    let f = std::fs::File::create(&big).expect("create");
    f.set_len(crate::source::MAX_SOURCE_BYTES as u64 + 1)
        .expect("sparse file");
    dir.write("main.p4", "#include \"big.p4\"\nafter\n");
    let r = run_file_in(&dir, "main.p4", &PreprocessConfig::default());
    assert_eq!(r.codes(), ["E0005"]);
    assert!(
        r.errors()[0].message.contains("the limit is 16 MiB"),
        "{}",
        r.errors()[0].message
    );
    assert_eq!(r.sources.len(), 1, "the big file was not loaded");
}

fn run_limited(src: &str, path: Option<PathBuf>, limits: Limits) -> (Run, bool) {
    let mut sources = SourceMap::new();
    let root = sources.add("test.p4", path, src.to_string());
    let mut diags = Diagnostics::new();
    let out = preprocess_limited(
        &mut sources,
        root,
        &PreprocessConfig::default(),
        &mut diags,
        limits,
    );
    let stopped = out.stopped;
    let run = Run {
        text: out.text,
        map: out.map,
        sources,
        diags: diags.into_vec(),
        root,
    };
    (run, stopped)
}

#[test]
fn output_and_reading_limits_stop_the_run() {
    // Output: expansions that would pass the limit stop the run.
    let src = format!(
        "#define X {}\n{}",
        "word ".repeat(100),
        "X X X X\n".repeat(100)
    );
    let limits = Limits {
        output: 10_000,
        scanned: usize::MAX,
    };
    let (r, stopped) = run_limited(&src, None, limits);
    assert!(stopped);
    assert_eq!(r.codes(), ["E0005"]);
    assert!(r.text.len() <= 10_000);
    assert!(r.errors()[0].message.contains("larger than 10000 bytes"));

    // Reading: a file without a guard included over and over.
    let dir = TempDir::new();
    let inc = dir.write("u.p4", &"// filler\n".repeat(100));
    let root = dir.path("main.p4");
    let src = format!("#include \"{}\"\n", inc.display()).repeat(50);
    let limits = Limits {
        output: usize::MAX,
        scanned: 20_000,
    };
    let (r, stopped) = run_limited(&src, Some(root), limits);
    assert!(stopped);
    assert_eq!(r.codes(), ["E0005"]);
    assert!(r.errors()[0].message.contains("more than 20000 bytes"));
}

// ---- macro expansions that grow without bound ----

#[test]
fn doubling_expansions_are_cut_off() {
    // Each level doubles its argument; cut-off levels must not go on
    // doubling what they were given.
    for body in ["x x", "x x x x"] {
        let src = format!(
            "#define A(x) {body}\n{}a{}\nafter\n",
            "A(".repeat(3000),
            ")".repeat(3000)
        );
        let r = run(&src);
        assert_eq!(r.codes(), ["E0023"], "{body}");
        assert!(r.text.len() < 1 << 20, "{} bytes", r.text.len());
        assert!(r.text.contains("after"));
    }
    // `##` and `#` doubling a token's text at every level.
    let paste = format!(
        "#define P(a) Q(a)\n#define Q(a) a##a\n{}x{}\n",
        "P(".repeat(40),
        ")".repeat(40)
    );
    let string = format!(
        "#define S(x) #x #x\n#define T(x) S(x)\n{}a{}\n",
        "T(".repeat(40),
        ")".repeat(40)
    );
    for src in [paste, string] {
        let r = run(&src);
        assert_eq!(r.codes(), ["E0023"], "{src}");
        assert!(r.text.len() < 1 << 20, "{} bytes", r.text.len());
    }
}

#[test]
fn long_macro_chains_expand_or_stop() {
    // 2,000 object-like and function-like macros, each expanding to the
    // previous one: hide sets grow with the depth.
    let chain = |f: &dyn Fn(usize) -> String, call: &str| {
        let mut src = String::new();
        for i in 1..2000 {
            src.push_str(&f(i));
        }
        src.push_str(call);
        src
    };
    let object = chain(&|i| format!("#define A{i} A{}\n", i - 1), "A1999\n");
    let r = run(&format!("#define A0 done\n{object}"));
    assert!(r.codes().iter().all(|&c| c == "E0023"), "{:?}", r.codes());
    assert!(r.codes().len() <= 1);
    let function = chain(
        &|i| format!("#define F{i}(x) F{}(x)\n", i - 1),
        "F1999(done)\n",
    );
    let r = run(&format!("#define F0(x) x\n{function}"));
    assert!(r.codes().len() <= 1, "{:?}", r.codes());
    // A shallow chain still expands in full.
    let r = run("#define A0 done\n#define A1 A0\n#define A2 A1 A1\nA2\n");
    assert!(r.diags.is_empty());
    assert_eq!(r.squashed(), "donedone");
}

#[test]
fn many_parameters_and_defines() {
    let params: Vec<String> = (0..5000).map(|i| format!("p{i}")).collect();
    let src = format!(
        "#define F({}) p4999 p0\nF({})\n",
        params.join(","),
        (0..5000)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(",")
    );
    let r = run(&src);
    assert!(r.diags.is_empty(), "{:?}", r.codes());
    assert_eq!(r.squashed(), "49990");
    let dup = run("#define F(a, b, a) a\n");
    assert_eq!(dup.codes(), ["E0021"]);
}
