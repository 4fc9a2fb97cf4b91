//! A connection's outbox: the messages waiting to go to one page. It is bounded: a page
//! that stops reading (or reads slower than its game talks) fills it, and is then closed
//! rather than holding a growing queue in the server.

use std::sync::Arc;

use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::mpsc::{channel, Receiver, Sender};
use tokio::sync::Notify;

/// The most messages waiting for one connection. A game sends a few per move (a state,
/// `thinking`, an `info` per depth), so a page that reads is never near it.
pub const OUTBOX_MESSAGES: usize = 256;

/// The sending side, held by the connection and by the games it follows.
#[derive(Clone)]
pub struct Outbox {
    tx: Sender<Arc<str>>,
    behind: Arc<Notify>,
}

/// The connection's side: the messages, and the word that it fell too far behind.
pub struct Inbox {
    pub messages: Receiver<Arc<str>>,
    pub behind: Arc<Notify>,
}

impl Outbox {
    pub fn new() -> (Outbox, Inbox) {
        Outbox::with_capacity(OUTBOX_MESSAGES)
    }

    pub fn with_capacity(capacity: usize) -> (Outbox, Inbox) {
        let (tx, rx) = channel(capacity);
        let behind = Arc::new(Notify::new());
        (Outbox { tx, behind: Arc::clone(&behind) }, Inbox { messages: rx, behind })
    }

    /// Queues `text`; `false` when the connection is gone, or has fallen too far behind
    /// (it is then told to close).
    pub fn send(&self, text: impl Into<Arc<str>>) -> bool {
        match self.tx.try_send(text.into()) {
            Ok(()) => true,
            Err(TrySendError::Full(_)) => {
                self.behind.notify_one();
                false
            }
            Err(TrySendError::Closed(_)) => false,
        }
    }

    pub fn same(&self, other: &Outbox) -> bool {
        self.tx.same_channel(&other.tx)
    }

    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_outbox_refuses_and_says_the_reader_is_behind() {
        let (out, mut inbox) = Outbox::with_capacity(2);
        assert!(out.send("a"));
        assert!(out.send("b"));
        assert!(!out.send("c"), "the third message does not fit");
        // The word is kept until the connection looks.
        tokio::time::timeout(std::time::Duration::from_secs(5), inbox.behind.notified()).await.unwrap();
        assert_eq!(inbox.messages.recv().await.as_deref(), Some("a"));
        assert!(out.send("d"), "room again once the reader reads");
        drop(inbox);
        assert!(!out.send("e"));
        assert!(out.is_closed());
    }
}
