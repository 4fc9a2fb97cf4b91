//! Everything the engine takes from outside that is not a protocol command: files named
//! by an option or a subcommand ([`file`]: regular files only, their size checked before
//! a bounded read), lines of input ([`lines`]: with a documented length limit), and
//! outside text made safe for one output line ([`shown`], [`escaped`]).
//!
//! The lowest layer: it knows nothing of games or protocols, so every layer above uses it
//! (the games' net and table files, the protocol loop, `koma analyse`, `koma solve`,
//! `koma replay`, the training commands).

pub(crate) mod file;
pub(crate) mod lines;
pub(crate) mod number;

use std::path::Path;

/// The longest error text printed; the rest is cut (a 1 MB bad value is not echoed).
pub const MAX_ERROR_CHARS: usize = 300;

/// `text` as one output line: control characters escaped (`\r`, `\n`, `\t`, else
/// `\u{..}`, U+2028 and U+2029 too), so no outside byte can start a line of its own or
/// look like one to a reader splitting on `\r`; cut after `max` characters with
/// `... (N more characters)`.
pub fn escaped(text: &str, max: usize) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    let mut kept = 0;
    for c in chars.by_ref() {
        match c {
            '\r' => out.push_str("\\r"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            // Controls, and the Unicode line and paragraph separators that many readers
            // split lines on.
            c if c.is_control() || c == '\u{2028}' || c == '\u{2029}' => out.push_str(&c.escape_unicode().to_string()),
            c => out.push(c),
        }
        kept += 1;
        if kept >= max {
            break;
        }
    }
    let rest = chars.count();
    if rest > 0 {
        out.push_str(&format!("... ({rest} more characters)"));
    }
    out
}

/// Text that may hold input, made safe for one output line and cut to
/// [`MAX_ERROR_CHARS`].
pub fn shown(text: &str) -> String {
    escaped(text, MAX_ERROR_CHARS)
}

/// A path as it is printed: on one line (escaped as [`escaped`]), never cut; bytes that
/// are not UTF-8 show as U+FFFD.
pub fn path(p: &Path) -> String {
    escaped(&p.to_string_lossy(), usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_input_stay_on_one_line() {
        assert_eq!(path(Path::new("a\nb\rc\u{2028}d.txt")), "a\\nb\\rc\\u{2028}d.txt");
        assert_eq!(path(Path::new(&"p".repeat(5000))).len(), 5000);
        let cut = shown(&"x".repeat(1000));
        assert!(cut.ends_with("... (700 more characters)"), "{cut}");
        assert_eq!(shown("\x1b[2J"), "\\u{1b}[2J");
    }
}
