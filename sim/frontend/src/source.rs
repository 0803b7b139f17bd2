//! Source files, spans and the map from preprocessed text back to the files.
//!
//! The preprocessor turns a root file and everything it includes into one
//! translation unit. The lexer, parser and checker work on offsets into that
//! unit ([`Span`]); diagnostics are reported against original files
//! ([`FileSpan`]), translated through the [`OffsetMap`] the preprocessor built.

use std::ops::Range;
use std::path::{Path, PathBuf};

/// The largest source file the front end reads (16 MiB): a root file,
/// source text handed in, or an included file. Larger ones are refused
/// with an error (E0005) without being read.
pub const MAX_SOURCE_BYTES: usize = 16 << 20;

/// Reads the file at `path` if it is at most [`MAX_SOURCE_BYTES`] long;
/// `Ok(Err(size))` (a lower bound of its size) if it is longer. Never
/// reads more than the limit and one byte, whatever the file.
pub fn read_capped(path: &Path) -> std::io::Result<Result<Vec<u8>, u64>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    if len > MAX_SOURCE_BYTES as u64 {
        return Ok(Err(len));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(MAX_SOURCE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() > MAX_SOURCE_BYTES {
        return Ok(Err(bytes.len() as u64));
    }
    Ok(Ok(bytes))
}

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
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The name shown in diagnostics: the path as the user wrote it, or
    /// `<core.p4>` for a built-in include.
    pub name: String,
    /// Where the file lives on disk; `None` for built-in and in-memory files.
    pub path: Option<PathBuf>,
    pub text: String,
    line_starts: Vec<u32>,
    /// For text that is not all ASCII: the number of characters before
    /// each [`CHAR_BLOCK`]-byte block, so a column costs at most one
    /// block's scan. Empty for ASCII text (a column is a byte difference).
    char_marks: Vec<u32>,
}

/// The block size of [`SourceFile`]'s character index.
const CHAR_BLOCK: usize = 4096;

/// Whether `b` starts a UTF-8 character (is not a continuation byte).
fn starts_char(b: u8) -> bool {
    (b as i8) >= -0x40
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

    /// One-based line and column (in characters) of `offset`. Takes
    /// time independent of the line's length (a binary search for the
    /// line, at most one 4 KiB block scanned for the column).
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let offset = offset.min(self.text.len() as u32) as usize;
        let line = self.line_index(offset as u32);
        let start = self.line_starts[line] as usize;
        let col = self
            .chars_before(offset)
            .saturating_sub(self.chars_before(start));
        (line + 1, col + 1)
    }

    /// The number of characters that start before byte `offset`.
    fn chars_before(&self, offset: usize) -> usize {
        if self.char_marks.is_empty() {
            return offset;
        }
        let block = offset / CHAR_BLOCK;
        let from = block * CHAR_BLOCK;
        let mark = self.char_marks.get(block).copied().unwrap_or(0) as usize;
        mark + self.text.as_bytes()[from..offset]
            .iter()
            .filter(|&&b| starts_char(b))
            .count()
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
        let char_marks = if text.is_ascii() {
            Vec::new()
        } else {
            let mut marks = Vec::with_capacity(text.len() / CHAR_BLOCK + 1);
            let mut chars = 0u32;
            for block in text.as_bytes().chunks(CHAR_BLOCK) {
                marks.push(chars);
                chars += block.iter().filter(|&&b| starts_char(b)).count() as u32;
            }
            // For the end of a text whose length is a multiple of the block.
            marks.push(chars);
            marks
        };
        let id = FileId(self.files.len() as u32);
        self.files.push(SourceFile {
            name: name.into(),
            path,
            text,
            line_starts,
            char_marks,
        });
        id
    }

    /// Reads a file from disk and adds it (a leading UTF-8 byte-order
    /// mark is dropped, as cpp does). A file larger than
    /// [`MAX_SOURCE_BYTES`] is an error of kind `FileTooLarge`.
    pub fn load(&mut self, path: &Path) -> std::io::Result<FileId> {
        let bytes = read_capped(path)?.map_err(|size| {
            std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                format!(
                    "{} is {size} bytes or more; the limit is {} MiB",
                    path.display(),
                    MAX_SOURCE_BYTES >> 20
                ),
            )
        })?;
        let mut text = String::from_utf8(bytes).map_err(|_| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "stream did not contain valid UTF-8",
            )
        })?;
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

/// Resolves spans of a checked program to `file:line:col` after its
/// compilation is gone: the behavioural model names the place of a
/// construct it refuses at load time with it (see
/// [`crate::ir::Program::locator`]). Cheap to clone; empty (resolving
/// nothing) for a program not built by the driver.
#[derive(Clone, Debug, Default)]
pub struct Locator {
    inner: Option<std::sync::Arc<(OffsetMap, Vec<SourceFile>)>>,
}

impl Locator {
    /// A locator for spans of the unit `map` describes, over `sources`.
    pub fn new(map: &OffsetMap, sources: &SourceMap) -> Locator {
        Locator {
            inner: Some(std::sync::Arc::new((map.clone(), sources.files.clone()))),
        }
    }

    /// `file:line:col` (1-based, the column in characters) of the start of
    /// `span`, or `None` when the locator knows no files.
    ///
    /// ```
    /// use janus_p4::driver::{compile_source, Options};
    /// let c = compile_source("t.p4", "const bit<8> A = 1;\nconst bit<8> B = 2;".into(), &Options::default());
    /// let ir = c.ir.unwrap();
    /// let b = ir.locator.locate(janus_p4::source::Span::new(26, 27));
    /// assert_eq!(b.as_deref(), Some("t.p4:2:7"));
    /// ```
    pub fn locate(&self, span: Span) -> Option<String> {
        let (map, files) = self.inner.as_deref()?;
        let at = map.resolve(span)?;
        let file = files.get(at.file.0 as usize)?;
        let (line, col) = file.line_col(at.lo);
        Some(format!("{}:{line}:{col}", file.name))
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
    fn line_col_counts_characters_across_blocks() {
        let mut map = SourceMap::new();
        // 5000 two-byte characters on one line, then a second line.
        let text = format!("{}\nab", "é".repeat(5000));
        let id = map.add("a.p4", None, text);
        let f = map.file(id);
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(2), (1, 2));
        assert_eq!(f.line_col(9000), (1, 4501));
        assert_eq!(f.line_col(10_000), (1, 5001));
        assert_eq!(f.line_col(10_002), (2, 2));
        // The end of a text that fills its last block exactly.
        let text = format!("é{}", "a".repeat(2 * 4096 - 2));
        let id = map.add("b.p4", None, text);
        assert_eq!(map.file(id).line_col(2 * 4096), (1, 2 * 4096));
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
