//! Source files, spans and the map from preprocessed text back to the files.
//!
//! The preprocessor turns a root file and everything it includes into one
//! translation unit. The lexer, parser and checker work on offsets into that
//! unit ([`Span`]); diagnostics are reported against original files
//! ([`FileSpan`]), translated through the [`OffsetMap`] the preprocessor built.

use std::ops::Range;
use std::path::{Path, PathBuf};

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A byte range `lo..hi` in the preprocessed translation unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub lo: u32,
    pub hi: u32,
}

impl Span {
    pub const DUMMY: Span = Span { lo: 0, hi: 0 };

    pub fn new(lo: u32, hi: u32) -> Span {
        Span { lo, hi }
    }

    /// The smallest span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }

    pub fn range(self) -> Range<usize> {
        self.lo as usize..self.hi as usize
    }
}

/// A byte range in one original source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FileSpan {
    pub file: FileId,
    pub lo: u32,
    pub hi: u32,
}

/// One loaded source file.
#[derive(Debug)]
pub struct SourceFile {
    /// The name shown in diagnostics: the path as the user wrote it, or
    /// `<core.p4>` for a built-in include.
    pub name: String,
    /// Where the file lives on disk; `None` for built-in and in-memory files.
    pub path: Option<PathBuf>,
    pub text: String,
    line_starts: Vec<u32>,
}

impl SourceFile {
    /// Byte offsets at which each line starts (line 0 starts at 0).
    pub fn line_starts(&self) -> &[u32] {
        &self.line_starts
    }

    /// Zero-based line index containing `offset`.
    pub fn line_index(&self, offset: u32) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    /// One-based line and column (in characters) of `offset`.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let offset = offset.min(self.text.len() as u32);
        let line = self.line_index(offset);
        let start = self.line_starts[line] as usize;
        let col = self
            .text
            .get(start..offset as usize)
            .map_or(offset as usize - start, |s| s.chars().count());
        (line + 1, col + 1)
    }
}

/// All files of one compilation.
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, path: Option<PathBuf>, text: String) -> FileId {
        let mut line_starts = vec![0u32];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i as u32 + 1),
        );
        let id = FileId(self.files.len() as u32);
        self.files.push(SourceFile {
            name: name.into(),
            path,
            text,
            line_starts,
        });
        id
    }

    /// Reads a file from disk and adds it (a leading UTF-8 byte-order
    /// mark is dropped, as cpp does).
    pub fn load(&mut self, path: &Path) -> std::io::Result<FileId> {
        let mut text = std::fs::read_to_string(path)?;
        if text.starts_with('\u{feff}') {
            text.drain(..'\u{feff}'.len_utf8());
        }
        Ok(self.add(path.display().to_string(), Some(path.to_path_buf()), text))
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// The file already loaded from `path`, if any.
    pub fn find_path(&self, path: &Path) -> Option<FileId> {
        self.files
            .iter()
            .position(|f| f.path.as_deref() == Some(path))
            .map(|i| FileId(i as u32))
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// One stretch of the translation unit and where it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Start of the stretch in the translation unit.
    pub out_lo: u32,
    /// Length of the stretch in the translation unit.
    pub out_len: u32,
    pub file: FileId,
    /// Start of the origin in `file`.
    pub src_lo: u32,
    /// Length of the origin. Equal to `out_len` for text copied verbatim,
    /// where offsets map one to one; different for a macro expansion, which
    /// maps as a whole to the macro invocation.
    pub src_len: u32,
}

/// Maps offsets in the preprocessed translation unit back to original files.
#[derive(Clone, Debug, Default)]
pub struct OffsetMap {
    segments: Vec<Segment>,
}

impl OffsetMap {
    pub fn new() -> OffsetMap {
        OffsetMap::default()
    }

    /// A map for a unit that is exactly one file, unchanged.
    pub fn identity(file: FileId, len: u32) -> OffsetMap {
        OffsetMap {
            segments: vec![Segment {
                out_lo: 0,
                out_len: len,
                file,
                src_lo: 0,
                src_len: len,
            }],
        }
    }

    /// Appends a segment. Segments must be pushed in increasing `out_lo`
    /// order; adjacent verbatim segments of one file are merged.
    pub fn push(&mut self, seg: Segment) {
        if seg.out_len == 0 {
            return;
        }
        if let Some(last) = self.segments.last_mut() {
            debug_assert!(last.out_lo + last.out_len <= seg.out_lo);
            let verbatim = last.out_len == last.src_len && seg.out_len == seg.src_len;
            if verbatim
                && last.file == seg.file
                && last.out_lo + last.out_len == seg.out_lo
                && last.src_lo + last.src_len == seg.src_lo
            {
                last.out_len += seg.out_len;
                last.src_len += seg.src_len;
                return;
            }
        }
        self.segments.push(seg);
    }

    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    fn segment_at(&self, offset: u32) -> Option<&Segment> {
        let i = self.segments.partition_point(|s| s.out_lo <= offset);
        if i == 0 {
            return self.segments.first();
        }
        Some(&self.segments[i - 1])
    }

    /// The original position of a span of the translation unit. A span that
    /// runs across segments is cut at the end of the first one.
    pub fn resolve(&self, span: Span) -> Option<FileSpan> {
        let seg = self.segment_at(span.lo)?;
        if seg.out_len != seg.src_len {
            return Some(FileSpan {
                file: seg.file,
                lo: seg.src_lo,
                hi: seg.src_lo + seg.src_len,
            });
        }
        let rel = span.lo.saturating_sub(seg.out_lo).min(seg.src_len);
        let lo = seg.src_lo + rel;
        let end = seg.out_lo + seg.out_len;
        let hi = if span.hi <= end {
            seg.src_lo + span.hi.saturating_sub(seg.out_lo)
        } else {
            seg.src_lo + seg.src_len
        };
        Some(FileSpan {
            file: seg.file,
            lo,
            hi: hi.max(lo),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one() {
        let mut map = SourceMap::new();
        let id = map.add("a.p4", None, "ab\ncd\n".into());
        assert_eq!(map.file(id).line_col(0), (1, 1));
        assert_eq!(map.file(id).line_col(4), (2, 2));
        assert_eq!(map.file(id).line_col(6), (3, 1));
    }

    #[test]
    fn resolve_maps_verbatim_and_expanded_segments() {
        let mut m = OffsetMap::new();
        let (a, b) = (FileId(0), FileId(1));
        m.push(Segment {
            out_lo: 0,
            out_len: 10,
            file: a,
            src_lo: 0,
            src_len: 10,
        });
        m.push(Segment {
            out_lo: 10,
            out_len: 7,
            file: a,
            src_lo: 10,
            src_len: 3,
        });
        m.push(Segment {
            out_lo: 17,
            out_len: 5,
            file: b,
            src_lo: 100,
            src_len: 5,
        });
        assert_eq!(
            m.resolve(Span::new(2, 4)),
            Some(FileSpan {
                file: a,
                lo: 2,
                hi: 4
            })
        );
        assert_eq!(
            m.resolve(Span::new(12, 13)),
            Some(FileSpan {
                file: a,
                lo: 10,
                hi: 13
            })
        );
        assert_eq!(
            m.resolve(Span::new(18, 20)),
            Some(FileSpan {
                file: b,
                lo: 101,
                hi: 103
            })
        );
        // A span across segments is cut at the first segment's end.
        assert_eq!(
            m.resolve(Span::new(8, 19)),
            Some(FileSpan {
                file: a,
                lo: 8,
                hi: 10
            })
        );
    }
}
