//! The module's exceptions, and long work (perft, the solver) run with the GIL released
//! and stopped by Ctrl-C.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    koma,
    IllegalMove,
    PyValueError,
    "A move that is malformed, not legal in the position, or played after the end."
);
create_exception!(koma, InvalidSfen, PyValueError, "An SFEN that is malformed or describes an impossible position.");

/// How often a waiting call looks at Python's signals (Ctrl-C).
pub const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a thread of its own while this one waits without the GIL (other Python
/// threads run). A signal's exception (KeyboardInterrupt) sets `stop`, waits for `work`
/// to notice and is raised.
pub fn interruptible<T: Send>(py: Python<'_>, stop: &AtomicBool, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (tx, mut rx) = mpsc::channel();
        scope.spawn(move || {
            let _ = tx.send(work());
        });
        loop {
            let (back, got) = py.detach(move || {
                let got = rx.recv_timeout(SIGNAL_POLL);
                (rx, got)
            });
            rx = back;
            match got {
                Ok(value) => return Ok(value),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(pyo3::exceptions::PyRuntimeError::new_err("koma: the work thread failed"))
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if let Err(e) = py.check_signals() {
                stop.store(true, Ordering::SeqCst);
                py.detach(move || drop(rx.recv()));
                return Err(e);
            }
        }
    })
}
