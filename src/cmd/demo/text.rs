//! Printing: wrapped paragraphs, counts, paths.

use super::*;

/// Width of the printed text.
pub(super) const WIDTH: usize = 100;

/// Wraps `text` to lines of at most `width` characters (longer words stay
/// whole).
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Prints `text` after `first`, wrapped to [`WIDTH`], continuation lines
/// indented under the text.
pub(super) fn say(first: &str, text: &str) {
    say_hanging(first, &" ".repeat(first.chars().count()), text);
}

/// Prints `text` after `first`, wrapped to [`WIDTH`], continuation lines
/// after `hang`.
pub(super) fn say_hanging(first: &str, hang: &str, text: &str) {
    let width = WIDTH.saturating_sub(first.chars().count().max(hang.chars().count()));
    let mut lines = wrap(text, width).into_iter();
    println!("{first}{}", lines.next().unwrap_or_default());
    for line in lines {
        println!("{hang}{line}");
    }
}

/// `1 frame`, `2 frames`; `1 entry`, `2 entries`.
pub(super) fn count(n: impl Into<u64>, word: &str) -> String {
    let n = n.into();
    match (n, word.strip_suffix('y')) {
        (1, _) => format!("{n} {word}"),
        (_, Some(stem)) => format!("{n} {stem}ies"),
        _ => format!("{n} {word}s"),
    }
}

/// `path` relative to the current directory when it is inside it.
pub(super) fn shown(path: &Path) -> String {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf())
        .display()
        .to_string()
}
