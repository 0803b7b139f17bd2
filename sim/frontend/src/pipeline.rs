//! The compiled-pipeline file that `janus p4 compile -o` writes and the
//! behavioural model, control plane and firmware images load.
//!
//! Layout (version 1), all text:
//! ```text
//! janus-pipeline 1
//! name <program name>
//! source <byte count>
//! <the preprocessed program, that many bytes>
//! p4info <byte count>
//! <P4Info in protobuf text format, that many bytes>
//! ```
//! The program is stored preprocessed, so the file needs no include paths;
//! a loader runs the front end on it again (about a millisecond per
//! thousand lines), so a pipeline file can never disagree with the IR of
//! the Janus version that loads it.
//!
//! Since the program is preprocessed, loading never needs a file: it is
//! compiled in the sandbox ([`IncludeAccess::BuiltinOnly`]), so a pipeline
//! file from elsewhere (a controller's device config, a firmware image)
//! that says `#include "/etc/shadow"` gets an error, not the file.

use crate::driver::{Compilation, IncludeAccess, Options, compile_source};
use thiserror::Error;

const MAGIC: &str = "janus-pipeline 1";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pipeline {
    pub name: String,
    /// The preprocessed P4 program.
    pub source: String,
    /// P4Info, protobuf text format.
    pub p4info: String,
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum PipelineError {
    #[error("not a Janus pipeline file (expected `{MAGIC}` on the first line)")]
    BadMagic,
    #[error("pipeline file is truncated or malformed: {0}")]
    Malformed(&'static str),
    #[error("the pipeline's program no longer compiles:\n{0}")]
    DoesNotCompile(String),
}

impl Pipeline {
    /// Bundles a compilation that had no errors.
    pub fn from_compilation(c: &Compilation) -> Pipeline {
        let root = c.sources.file(c.root);
        let name = root
            .path
            .as_ref()
            .and_then(|p| p.file_stem())
            .map_or_else(|| root.name.clone(), |s| s.to_string_lossy().into_owned());
        let p4info = c
            .program()
            .map(|p| crate::p4info::to_text(&crate::p4info::build(p)))
            .unwrap_or_default();
        Pipeline {
            name,
            source: c.preprocessed.clone(),
            p4info,
        }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = String::with_capacity(self.source.len() + self.p4info.len() + 64);
        out.push_str(MAGIC);
        out.push('\n');
        out.push_str(&format!("name {}\n", self.name.replace('\n', " ")));
        out.push_str(&format!("source {}\n", self.source.len()));
        out.push_str(&self.source);
        out.push_str(&format!("\np4info {}\n", self.p4info.len()));
        out.push_str(&self.p4info);
        out.into_bytes()
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Pipeline, PipelineError> {
        let text = std::str::from_utf8(bytes).map_err(|_| PipelineError::Malformed("not UTF-8"))?;
        let rest = text
            .strip_prefix(MAGIC)
            .and_then(|r| r.strip_prefix('\n'))
            .ok_or(PipelineError::BadMagic)?;
        let (name_line, rest) = rest
            .split_once('\n')
            .ok_or(PipelineError::Malformed("no name line"))?;
        let name = name_line
            .strip_prefix("name ")
            .ok_or(PipelineError::Malformed("no name line"))?;
        let (source, rest) = take_counted(rest, "source ")?;
        let rest = rest
            .strip_prefix('\n')
            .ok_or(PipelineError::Malformed("no newline after the source"))?;
        let (p4info, rest) = take_counted(rest, "p4info ")?;
        if !rest.is_empty() {
            return Err(PipelineError::Malformed("trailing bytes"));
        }
        Ok(Pipeline {
            name: name.to_string(),
            source: source.to_string(),
            p4info: p4info.to_string(),
        })
    }

    /// Runs the front end on the bundled program, in the sandbox: only
    /// the built-in include files resolve and no file is read.
    pub fn compile(&self) -> Result<Compilation, PipelineError> {
        let sandbox = Options {
            include_access: IncludeAccess::BuiltinOnly,
            ..Options::default()
        };
        let c = compile_source(&format!("{}.p4", self.name), self.source.clone(), &sandbox);
        if c.has_errors() {
            return Err(PipelineError::DoesNotCompile(c.render(false)));
        }
        Ok(c)
    }
}

/// Reads `<label><count>\n` then `count` bytes.
fn take_counted<'a>(s: &'a str, label: &'static str) -> Result<(&'a str, &'a str), PipelineError> {
    let (line, rest) = s
        .split_once('\n')
        .ok_or(PipelineError::Malformed("missing section header"))?;
    let count: usize = line
        .strip_prefix(label)
        .and_then(|n| n.parse().ok())
        .ok_or(PipelineError::Malformed("bad section header"))?;
    if rest.len() < count || !rest.is_char_boundary(count) {
        return Err(PipelineError::Malformed("section shorter than its count"));
    }
    Ok(rest.split_at(count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_recompiles() {
        let src = "#include <core.p4>\ncontrol C(inout bit<8> x) { action a(bit<8> v) { x = v; } table t { key = { x: exact; } actions = { a; } } apply { t.apply(); } }\n";
        let c = compile_source("prog.p4", src.into(), &Options::default());
        assert!(!c.has_errors(), "{}", c.render(false));
        let p = Pipeline::from_compilation(&c);
        let back = Pipeline::from_bytes(&p.to_bytes()).expect("parses");
        assert_eq!(back, p);
        let again = back.compile().expect("compiles");
        assert_eq!(again.program().map(|p| p.tables.len()), Some(1));
    }

    #[test]
    fn compiles_in_the_sandbox() {
        let dir =
            std::env::temp_dir().join(format!("janus-pipeline-sandbox-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let secret = dir.join("secret.p4");
        std::fs::write(&secret, "PIPELINE_FILE_SECRET\n").expect("write");
        for include in [
            format!("\"{}\"", secret.display()),
            "\"secret.p4\"".to_string(),
            "\"../secret.p4\"".to_string(),
        ] {
            let p = Pipeline {
                name: dir.join("x").display().to_string(),
                source: format!("#include {include}\nconst bit<8> A = 1;\n"),
                p4info: String::new(),
            };
            let Err(PipelineError::DoesNotCompile(msg)) = p.compile() else {
                panic!("{include} compiled");
            };
            assert!(msg.contains("E0025"), "{msg}");
            assert!(!msg.contains("PIPELINE_FILE_SECRET"), "{msg}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn rejects_damaged_files() {
        assert_eq!(Pipeline::from_bytes(b"hello"), Err(PipelineError::BadMagic));
        let good = Pipeline {
            name: "x".into(),
            source: "const bit<8> A = 1;".into(),
            p4info: String::new(),
        }
        .to_bytes();
        for cut in 0..good.len() {
            assert!(Pipeline::from_bytes(&good[..cut]).is_err(), "cut at {cut}");
        }
        let mut extra = good.clone();
        extra.push(b'!');
        assert!(Pipeline::from_bytes(&extra).is_err());
    }
}
