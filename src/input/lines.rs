//! The one place lines are read from outside (the protocol loop, `koma analyse`, `koma
//! solve`): a line holds at most [`MAX_LINE_BYTES`] bytes. The rest of a longer line is
//! read and dropped, not kept, so memory does not grow with what is sent (`< /dev/zero`
//! is a run of over-long lines, each one answered and forgotten); the reader says how many
//! bytes it dropped.

use std::io::{BufRead, ErrorKind};

/// The most bytes of a line that are kept (the newline not counted): 64 KiB, far more than
/// any position with its moves (a 1,000-ply game is about 5 KB).
pub(crate) const MAX_LINE_BYTES: usize = 64 * 1024;

/// One line read: its first bytes (at most the limit, without the newline) and how many
/// more it had.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Line<'a> {
    pub(crate) bytes: &'a [u8],
    /// Bytes past the limit, dropped (0: the line is whole).
    pub(crate) cut: u64,
}

/// Reads lines of at most `max` bytes from `inner`.
pub(crate) struct Lines<R> {
    inner: R,
    max: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    pub(crate) fn new(inner: R) -> Self {
        Self::with_limit(inner, MAX_LINE_BYTES)
    }

    pub(crate) fn with_limit(inner: R, max: usize) -> Self {
        Lines { inner, max, buf: Vec::new() }
    }

    /// The next line (`None` at the end of the input); the last line may lack its newline.
    pub(crate) fn next_line(&mut self) -> std::io::Result<Option<Line<'_>>> {
        self.buf.clear();
        let (mut cut, mut any) = (0u64, false);
        loop {
            let available = match self.inner.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                break;
            }
            any = true;
            let (part, used, done) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (&available[..i], i + 1, true),
                None => (available, available.len(), false),
            };
            let room = self.max - self.buf.len();
            let kept = part.len().min(room);
            self.buf.extend_from_slice(&part[..kept]);
            cut += (part.len() - kept) as u64;
            self.inner.consume(used);
            if done {
                break;
            }
        }
        Ok(any.then_some(Line { bytes: &self.buf, cut }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Vec<(Vec<u8>, u64)> {
        // A tiny buffer, so lines cross the reader's buffer boundary.
        let mut r = Lines::with_limit(std::io::BufReader::with_capacity(3, input), max);
        let mut out = Vec::new();
        while let Some(l) = r.next_line().unwrap() {
            out.push((l.bytes.to_vec(), l.cut));
        }
        out
    }

    #[test]
    fn lines_longer_than_the_limit_are_cut_and_counted() {
        let got = all(b"abc\n0123456789\n\nlast", 4);
        let want: Vec<(Vec<u8>, u64)> =
            vec![(b"abc".to_vec(), 0), (b"0123".to_vec(), 6), (Vec::new(), 0), (b"last".to_vec(), 0)];
        assert_eq!(got, want);
        assert!(all(b"", 4).is_empty());
    }

    #[test]
    fn an_endless_line_keeps_memory_flat() {
        let mut zeros = std::io::Read::take(std::io::repeat(0), 10 << 20);
        let mut r = Lines::with_limit(std::io::BufReader::new(&mut zeros), 1024);
        let line = r.next_line().unwrap().unwrap();
        assert_eq!((line.bytes.len(), line.cut), (1024, (10 << 20) - 1024));
        assert!(r.buf.capacity() < 4096);
    }
}
