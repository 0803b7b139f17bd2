//! The v1model version a program selects with `#define V1MODEL_VERSION`
//! before including v1model.p4, which declares
//! `const bit<32> __v1model_version = V1MODEL_VERSION;`. p4c
//! (`GetV1ModelVersion`) requires the constant's initialiser to be an
//! integer literal between the first and the latest v1model version.

use crate::ast::{self, DeclKind};
use crate::diag::{Code, Diagnostic};
use crate::source::{FileId, FileSpan, OffsetMap, SourceMap};
use num_traits::ToPrimitive;

/// The first v1model version (the default).
pub const V1MODEL_FIRST: u64 = 20180101;
/// The latest v1model version.
pub const V1MODEL_LATEST: u64 = 20200408;

/// The error for an unknown v1model version, if the program has one. It
/// points at the program's `#define V1MODEL_VERSION` when there is one in
/// a file of the program, else at the constant in v1model.p4.
pub fn check(program: &ast::Program, map: &OffsetMap, sources: &SourceMap) -> Option<Diagnostic> {
    let c = program.decls.iter().find_map(|d| match &d.kind {
        DeclKind::Const(c) if c.name.name == "__v1model_version" => Some(c),
        _ => None,
    })?;
    let value = match &c.value.kind {
        ast::ExprKind::Int(lit) => lit.value.to_u64(),
        _ => None,
    };
    if value.is_some_and(|v| (V1MODEL_FIRST..=V1MODEL_LATEST).contains(&v)) {
        return None;
    }
    let message = match value {
        Some(v) => format!(
            "unknown v1model version {v}: `V1MODEL_VERSION` must be between {V1MODEL_FIRST} (the first) and {V1MODEL_LATEST} (the latest)"
        ),
        None => format!(
            "`V1MODEL_VERSION` must be an integer literal, a v1model version between {V1MODEL_FIRST} and {V1MODEL_LATEST}"
        ),
    };
    let mut d = Diagnostic::error(Code::UnknownV1ModelVersion, message);
    if let Some(at) = define_site(sources).or_else(|| map.resolve(c.value.span)) {
        d = d.at(at, "");
    }
    Some(d)
}

/// The value of the first `#define V1MODEL_VERSION` in a file of the
/// program (not a built-in include), root file first.
fn define_site(sources: &SourceMap) -> Option<FileSpan> {
    (0..sources.len()).find_map(|i| {
        let file = FileId(i as u32);
        let f = sources.file(file);
        if f.name.starts_with('<') {
            return None;
        }
        let mut offset = 0usize;
        for line in f.text.split_inclusive('\n') {
            let start = offset;
            offset += line.len();
            let t = line.trim_start();
            let Some(rest) = t.strip_prefix('#') else {
                continue;
            };
            let rest = rest.trim_start();
            let Some(rest) = rest.strip_prefix("define") else {
                continue;
            };
            let after_define = rest.trim_start();
            let Some(value) = after_define.strip_prefix("V1MODEL_VERSION") else {
                continue;
            };
            if !value.starts_with([' ', '\t']) {
                continue;
            }
            let value_text = value.trim_start();
            let value_text = value_text
                .split("//")
                .next()
                .unwrap_or("")
                .split("/*")
                .next()
                .unwrap_or("")
                .trim_end();
            let lo = start + (line.len() - value.trim_start().len());
            let hi = lo + value_text.len().max(1);
            return Some(FileSpan {
                file,
                lo: lo as u32,
                hi: hi
                    .min(start + line.trim_end_matches(['\n', '\r']).len())
                    .max(lo) as u32,
            });
        }
        None
    })
}
