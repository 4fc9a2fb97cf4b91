//! Replays every transcript in `fixtures/transcripts/` against the real binary.
//!
//! Transcript format, one directive per line:
//! - `> text`     send `text` to the engine
//! - `< text`     the next output line is exactly `text`
//! - `<~ text`    the next output line starts with `text`
//! - `<... text`  skip output lines until one starts with `text` (it is consumed)
//! - `<re RE`     the next output line matches the regular expression `RE` (anywhere;
//!   anchor it with `^`/`$`): for lines with figures that vary, such as `info`
//! - `<...re RE`  skip output lines until one matches `RE`
//! - `<silent MS` nothing is printed for MS milliseconds
//! - `eof`        close the engine's input now (what follows reads its last words)
//! - `# ...` and blank lines are comments.
//! After the last directive stdin is closed: the engine must exit cleanly, print nothing
//! more, and never write to stderr.

mod common;

use std::time::Duration;

use common::Koma;

const LINE_TIMEOUT: Duration = Duration::from_secs(20);

fn regex(pattern: &str, at: &str) -> Result<regex::Regex, String> {
    regex::Regex::new(pattern).map_err(|e| format!("{at}: bad regular expression: {e}"))
}

fn replay(path: &std::path::Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut koma = Koma::spawn();
    for (n, raw) in text.lines().enumerate() {
        let at = format!("{}:{}", path.display(), n + 1);
        let line = raw.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (op, arg) = line.split_once(' ').unwrap_or((line, ""));
        match op {
            ">" => koma.send(arg),
            "<" | "<~" => {
                let got = koma.next_line(LINE_TIMEOUT).ok_or(format!("{at}: expected '{arg}', got nothing"))?;
                let ok = if op == "<" { got == arg } else { got.starts_with(arg) };
                if !ok {
                    return Err(format!("{at}: expected {}'{arg}', got '{got}'", if op == "<~" { "a line starting " } else { "" }));
                }
            }
            "<..." => loop {
                let got = koma.next_line(LINE_TIMEOUT).ok_or(format!("{at}: no line starting '{arg}'"))?;
                if got.starts_with(arg) {
                    break;
                }
            },
            "<re" => {
                let re = regex(arg, &at)?;
                let got = koma.next_line(LINE_TIMEOUT).ok_or(format!("{at}: expected /{arg}/, got nothing"))?;
                if !re.is_match(&got) {
                    return Err(format!("{at}: expected a line matching /{arg}/, got '{got}'"));
                }
            }
            "<...re" => {
                let re = regex(arg, &at)?;
                loop {
                    let got = koma.next_line(LINE_TIMEOUT).ok_or(format!("{at}: no line matching /{arg}/"))?;
                    if re.is_match(&got) {
                        break;
                    }
                }
            }
            "eof" => koma.close_input(),
            "<silent" => {
                let ms: u64 = arg.parse().map_err(|_| format!("{at}: bad <silent"))?;
                if let Some(l) = koma.next_line(Duration::from_millis(ms)) {
                    return Err(format!("{at}: expected silence, got '{l}'"));
                }
            }
            _ => return Err(format!("{at}: unknown directive '{op}'")),
        }
    }
    let (ok, rest, stderr) = koma.finish();
    if !ok {
        return Err(format!("{}: engine did not exit cleanly at end of input", path.display()));
    }
    if !rest.is_empty() {
        return Err(format!("{}: unexpected output at the end: {rest:?}", path.display()));
    }
    if !stderr.is_empty() {
        return Err(format!("{}: stderr not empty: {stderr}", path.display()));
    }
    Ok(())
}

#[test]
fn every_transcript_replays() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/transcripts");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures/transcripts exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "expected transcript fixtures in {}", dir.display());
    let failures: Vec<String> = files.iter().filter_map(|p| replay(p).err()).collect();
    assert!(failures.is_empty(), "{} of {} transcripts failed:\n{}", failures.len(), files.len(), failures.join("\n"));
}
