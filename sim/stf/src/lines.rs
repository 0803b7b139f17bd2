//! STF text read from a reader a line at a time, as the parser reads a
//! whole file: the first line without its byte-order mark, each line
//! without its `\n` (a `\r` before it is space to the parser).

use crate::ast::{Command, Located};
use crate::entries::LoadError;
use crate::error::StfError;
use crate::parser::parse_raw_line;
use std::io::BufRead;

/// The lines of a reader, one held at a time.
pub struct LineReader<R> {
    reader: R,
    line: usize,
    bytes: Vec<u8>,
    /// Set by a read error: the reader is not read again.
    failed: bool,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(reader: R) -> Self {
        LineReader {
            reader,
            line: 0,
            bytes: Vec::new(),
            failed: false,
        }
    }

    /// The next line's number (1-based) and text; `None` at the end. A
    /// read error or a line that is not UTF-8 is [`LoadError::Read`];
    /// after a read error there are no more lines.
    pub fn next_line(&mut self) -> Result<Option<(usize, &str)>, LoadError> {
        self.bytes.clear();
        if self.failed {
            return Ok(None);
        }
        self.line += 1;
        let line = self.line;
        let read = |message: String| LoadError::Read { line, message };
        match self.reader.read_until(b'\n', &mut self.bytes) {
            Ok(0) => return Ok(None),
            Ok(_) => {}
            Err(e) => {
                self.failed = true;
                return Err(read(e.to_string()));
            }
        }
        let mut raw = self.bytes.strip_suffix(b"\n").unwrap_or(&self.bytes);
        if line == 1 {
            raw = raw.strip_prefix("\u{feff}".as_bytes()).unwrap_or(raw);
        }
        let raw = std::str::from_utf8(raw).map_err(|e| read(format!("not UTF-8 text: {e}")))?;
        Ok(Some((line, raw)))
    }
}

/// The commands of STF text, parsed a line at a time as they are read;
/// blank and comment lines are skipped. A line that does not parse is
/// [`LoadError::Parse`] with its one error, and reading goes on after it.
pub struct CommandReader<R> {
    lines: LineReader<R>,
    chars: Vec<char>,
}

impl<R: BufRead> CommandReader<R> {
    pub fn new(reader: R) -> Self {
        CommandReader {
            lines: LineReader::new(reader),
            chars: Vec::new(),
        }
    }
}

impl<R: BufRead> Iterator for CommandReader<R> {
    type Item = Result<Located<Command>, LoadError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (line, raw) = match self.lines.next_line() {
                Ok(Some(l)) => l,
                Ok(None) => return None,
                Err(e) => return Some(Err(e)),
            };
            match parse_raw_line(raw, &mut self.chars) {
                Ok(None) => {}
                Ok(Some((column, item))) => {
                    return Some(Ok(Located { line, column, item }));
                }
                Err(d) => {
                    return Some(Err(LoadError::Parse(vec![StfError {
                        line,
                        column: d.column,
                        message: d.message,
                    }])));
                }
            }
        }
    }
}
