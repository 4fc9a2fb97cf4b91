//! The one place a file named from outside is read: by the net-file and solution-table
//! options, `koma replay`, `koma nnue-train` and whatever else takes a path.
//!
//! The kind first: only a regular file is read (a directory, a FIFO, a device or a socket
//! is one error, and opening one never blocks: it is opened non-blocking and checked
//! again on the open handle). Then the size, against the most the caller's format allows,
//! before a byte is read; then a read bounded by that size, so a file that grows while it
//! is read is refused too. The caller does this off any lock and off any async worker.

use std::fs::{File, Metadata};
use std::io::Read;
use std::path::Path;

use thiserror::Error;

/// Why a file was not read. The messages name no path: the caller says which file once.
#[derive(Debug, Error)]
pub(crate) enum FileError {
    #[error("cannot open it: {0}")]
    Open(std::io::Error),
    #[error("it is {0}, not a regular file")]
    NotRegular(&'static str),
    #[error("it is {size} bytes, more than the {max} bytes {what} may have")]
    TooBig { size: u64, max: u64, what: &'static str },
    #[error("cannot read it: {0}")]
    Read(std::io::Error),
    #[error("it is a FIFO that nobody reads: writing would wait forever")]
    NoReader,
    #[error("cannot write it: {0}")]
    Write(std::io::Error),
}

/// What a path names, for [`FileError::NotRegular`].
fn kind(m: &Metadata) -> Option<&'static str> {
    let t = m.file_type();
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO");
        }
        if t.is_char_device() || t.is_block_device() {
            return Some("a device");
        }
        if t.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a regular file")
}

/// Opens `path` for reading without blocking (a FIFO with no writer) and without making a
/// terminal the controlling one.
fn open(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    options.open(path)
}

/// Opens the regular file at `path` and checks it holds at most `max` bytes, saying what
/// the file is (`what`, e.g. "a net of this game") when it holds more.
pub(crate) fn open_regular(path: &Path, max: u64, what: &'static str) -> Result<(File, u64), FileError> {
    // The kind before opening (a FIFO is not even opened), and again on the handle (the
    // path may have changed in between).
    if let Some(k) = std::fs::metadata(path).ok().as_ref().and_then(kind) {
        return Err(FileError::NotRegular(k));
    }
    let file = open(path).map_err(FileError::Open)?;
    let meta = file.metadata().map_err(FileError::Read)?;
    if let Some(k) = kind(&meta) {
        return Err(FileError::NotRegular(k));
    }
    let size = meta.len();
    if size > max {
        return Err(FileError::TooBig { size, max, what });
    }
    Ok((file, size))
}

/// The bytes of the regular file at `path`, which may hold at most `max` bytes (`what`
/// says what it should be, for the error).
pub(crate) fn read(path: &Path, max: u64, what: &'static str) -> Result<Vec<u8>, FileError> {
    let (file, size) = open_regular(path, max, what)?;
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    // One byte more than allowed: a file that grew past `max` since its size was taken.
    file.take(max.saturating_add(1)).read_to_end(&mut bytes).map_err(FileError::Read)?;
    if bytes.len() as u64 > max {
        return Err(FileError::TooBig { size: bytes.len() as u64, max, what });
    }
    Ok(bytes)
}

/// The text of the regular file at `path` (at most `max` bytes, UTF-8).
pub(crate) fn read_text(path: &Path, max: u64, what: &'static str) -> Result<String, FileError> {
    let bytes = read(path, max, what)?;
    String::from_utf8(bytes).map_err(|e| {
        FileError::Read(std::io::Error::new(std::io::ErrorKind::InvalidData, format!("not UTF-8 text ({e})")))
    })
}

/// Writes `bytes` to `path`, made or emptied first. A FIFO is opened without blocking, so
/// one that nobody reads is an error at once rather than a wait forever; with a reader it
/// is written as a file is.
pub(crate) fn write(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let mut file = options.open(path).map_err(|e| match e.raw_os_error() {
        #[cfg(unix)]
        Some(libc::ENXIO) => FileError::NoReader,
        _ => FileError::Open(e),
    })?;
    #[cfg(unix)]
    {
        // Back to blocking writes: a reader that is slow is waited for, as with any file.
        use std::os::unix::io::AsRawFd;
        let fd = file.as_raw_fd();
        // SAFETY: fcntl on a descriptor this function owns, with plain integer flags.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags >= 0 {
                libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
            }
        }
    }
    file.write_all(bytes).and_then(|()| file.flush()).map_err(FileError::Write)
}

/// Whether `a` and `b` name the same existing file (through links or other spellings).
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) else { return false };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        (ma.dev(), ma.ino()) == (mb.dev(), mb.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = (ma, mb);
        matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let p = std::env::temp_dir().join(format!("koma-file-test-{}-{name}", std::process::id()));
        std::fs::write(&p, bytes).unwrap();
        p
    }

    #[test]
    fn a_regular_file_within_its_limit_is_read_whole() {
        let p = temp("ok", b"hello");
        assert_eq!(read(&p, 5, "a greeting").unwrap(), b"hello");
        let e = read(&p, 4, "a greeting").unwrap_err();
        assert_eq!(e.to_string(), "it is 5 bytes, more than the 4 bytes a greeting may have");
        std::fs::remove_file(p).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn devices_directories_and_missing_files_are_one_error_each() {
        let e = read(Path::new("/dev/zero"), 1 << 20, "a table").unwrap_err();
        assert_eq!(e.to_string(), "it is a device, not a regular file");
        let e = read(&std::env::temp_dir(), 1 << 20, "a table").unwrap_err();
        assert_eq!(e.to_string(), "it is a directory, not a regular file");
        let e = read(Path::new("/no/such/file"), 1 << 20, "a table").unwrap_err();
        assert!(e.to_string().starts_with("cannot open it: "), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_with_no_reader_is_not_waited_for_and_a_file_is_written_whole() {
        let dir = std::env::temp_dir().join(format!("koma-file-test-{}-fifo", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = write(&fifo, b"graph").unwrap_err();
        assert_eq!(e.to_string(), "it is a FIFO that nobody reads: writing would wait forever");
        let file = dir.join("out.svg");
        std::fs::write(&file, b"an older and longer text").unwrap();
        write(&file, b"graph").unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), b"graph");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
