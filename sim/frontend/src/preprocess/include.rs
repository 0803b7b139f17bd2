//! Finding and loading `#include`d files.

use super::{FileCtx, IncludeAccess, Preprocessor};
use crate::diag::{Code, shorten};
use crate::includes;
use crate::source::{FileId, MAX_SOURCE_BYTES, SourceMap};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The files already in `sources`: those on disk by canonical path, and
/// built-in ones (named `<name>`, with no path) by name. With
/// [`IncludeAccess::BuiltinOnly`] no path is canonicalised (the file
/// system is not touched) and none is listed.
pub(super) fn known_files(
    sources: &SourceMap,
    access: IncludeAccess,
) -> (HashMap<PathBuf, FileId>, HashMap<String, FileId>) {
    let mut by_path = HashMap::new();
    let mut by_builtin = HashMap::new();
    for i in 0..sources.len() {
        let id = FileId(i as u32);
        let f = sources.file(id);
        match &f.path {
            Some(p) if access == IncludeAccess::FileSystem => {
                by_path.entry(canonical(p)).or_insert(id);
            }
            Some(_) => {}
            None if f.name.starts_with('<') && f.name.ends_with('>') => {
                by_builtin.entry(f.name.clone()).or_insert(id);
            }
            None => {}
        }
    }
    (by_path, by_builtin)
}

/// The canonical form of `p`, or `p` itself if it cannot be resolved.
fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// The names of the built-in include files, for messages.
fn builtin_names() -> String {
    includes::BUILTIN
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

impl Preprocessor<'_> {
    /// Finds and loads the file `#include`d as `name`. `"name"` is looked
    /// for next to the including file first; both forms then search the
    /// `-I` directories and the built-in files. With
    /// [`IncludeAccess::BuiltinOnly`] only the built-in files are looked
    /// at, and nothing on disk.
    pub(super) fn resolve_include(
        &mut self,
        ctx: &FileCtx,
        name: &str,
        angled: bool,
    ) -> Result<FileId, (Code, String)> {
        if name.is_empty() {
            return Err((
                Code::IncludeNotFound,
                "empty file name in `#include`".into(),
            ));
        }
        if self.config.include_access == IncludeAccess::BuiltinOnly {
            return match includes::builtin(name) {
                Some(text) => Ok(self.builtin_file(name, text)),
                None => {
                    let shown = shorten(name, 80);
                    let written = if angled {
                        format!("<{shown}>")
                    } else {
                        format!("\"{shown}\"")
                    };
                    Err((
                        Code::IncludeNotAllowed,
                        format!(
                            "`#include {written}` is not allowed: programs pushed to the server \
                             may include only the built-in architecture files ({})",
                            builtin_names()
                        ),
                    ))
                }
            };
        }
        let local = if angled { None } else { ctx.dir.as_ref() };
        let dirs = local.into_iter().chain(self.config.include_dirs.iter());
        let found = dirs.map(|d| d.join(name)).find(|p| p.is_file());
        if let Some(path) = found {
            return self.load(&path);
        }
        if let Some(text) = includes::builtin(name) {
            return Ok(self.builtin_file(name, text));
        }
        Err((
            Code::IncludeNotFound,
            format!("cannot find include file `{}`", shorten(name, 200)),
        ))
    }

    /// The file at `path`, loaded into the source map unless it is there.
    /// A file larger than [`MAX_SOURCE_BYTES`] is refused unread.
    fn load(&mut self, path: &Path) -> Result<FileId, (Code, String)> {
        let key = canonical(path);
        if let Some(&id) = self.by_path.get(&key) {
            return Ok(id);
        }
        let cannot = |e: std::io::Error| {
            (
                Code::IncludeNotFound,
                format!("cannot read include file `{}`: {e}", path.display()),
            )
        };
        let bytes = match crate::source::read_capped(path) {
            Ok(Ok(bytes)) => bytes,
            Ok(Err(size)) => {
                return Err((
                    Code::InputTooLarge,
                    format!(
                        "include file `{}` is {size} bytes or more; the limit is {} MiB",
                        path.display(),
                        MAX_SOURCE_BYTES >> 20
                    ),
                ));
            }
            Err(e) => return Err(cannot(e)),
        };
        let text = String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        let id = self
            .sources
            .add(path.display().to_string(), Some(path.to_path_buf()), text);
        self.by_path.insert(key, id);
        Ok(id)
    }

    /// The built-in file `name`, added to the source map as `<name>` once.
    fn builtin_file(&mut self, name: &str, text: &str) -> FileId {
        let shown = format!("<{name}>");
        if let Some(&id) = self.by_builtin.get(&shown) {
            return id;
        }
        let id = self.sources.add(shown.clone(), None, text.to_string());
        self.by_builtin.insert(shown, id);
        id
    }
}
