//! A connection's outbox: the messages waiting to go to one page. Game states coalesce: a
//! new `state` replaces the states and search reports (`thinking`, `info`) still waiting
//! before it, so a page that reads slower than its game changes gets the latest position,
//! never a queue of stale ones, and is not closed for being slow. Answers to the page's own
//! requests are never dropped; the connection stops reading requests while
//! [`OUTBOX_MESSAGES`] of them wait, so they stay bounded too.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

/// The most messages waiting for one connection: beyond it, search reports are dropped
/// (oldest first), and the connection reads no further request until the page has taken
/// some.
pub(crate) const OUTBOX_MESSAGES: usize = 256;

/// What a message is to the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An answer to a request, or an error: always delivered, in order.
    Answer,
    /// A game's whole state: replaces the states and reports waiting before it.
    State,
    /// A search report (`thinking`, `info`): superseded by the next state, and dropped
    /// first when the queue is full.
    Report,
}

struct Queue {
    items: VecDeque<(Kind, Arc<str>)>,
    /// The connection is gone.
    closed: bool,
}

struct Shared {
    queue: Mutex<Queue>,
    ready: Notify,
    /// The connection took a message.
    taken: Notify,
}

/// The sending side, held by the connection and by the games it follows.
#[derive(Clone)]
pub struct Outbox {
    shared: Arc<Shared>,
}

/// The connection's side; dropping it closes the outbox.
pub struct Inbox {
    shared: Arc<Shared>,
}

impl Outbox {
    pub fn new() -> (Outbox, Inbox) {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue { items: VecDeque::new(), closed: false }),
            ready: Notify::new(),
            taken: Notify::new(),
        });
        (Outbox { shared: Arc::clone(&shared) }, Inbox { shared })
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.shared.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Queues an answer; `false` when the connection is gone.
    pub fn send(&self, text: impl Into<Arc<str>>) -> bool {
        self.push(Kind::Answer, text.into())
    }

    /// Queues `text` as a message of `kind`; `false` when the connection is gone.
    pub fn push(&self, kind: Kind, text: Arc<str>) -> bool {
        let mut q = self.queue();
        if q.closed {
            return false;
        }
        if kind == Kind::State {
            q.items.retain(|(k, _)| *k == Kind::Answer);
        }
        q.items.push_back((kind, text));
        while q.items.len() > OUTBOX_MESSAGES {
            let Some(i) = q.items.iter().position(|(k, _)| *k == Kind::Report) else { break };
            q.items.remove(i);
        }
        drop(q);
        self.shared.ready.notify_one();
        true
    }

    /// Messages waiting.
    pub fn len(&self) -> usize {
        self.queue().items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Waits until fewer than `max` messages wait (or the connection is gone).
    pub async fn room(&self, max: usize) {
        loop {
            let taken = self.shared.taken.notified();
            if self.len() < max || self.is_closed() {
                return;
            }
            taken.await;
        }
    }

    pub fn same(&self, other: &Outbox) -> bool {
        Arc::ptr_eq(&self.shared, &other.shared)
    }

    pub fn is_closed(&self) -> bool {
        self.queue().closed
    }
}

impl Inbox {
    /// The next message, waiting for one.
    pub async fn recv(&self) -> Arc<str> {
        loop {
            let ready = self.shared.ready.notified();
            let next = self.shared.queue.lock().unwrap_or_else(|p| p.into_inner()).items.pop_front();
            if let Some((_, text)) = next {
                self.shared.taken.notify_waiters();
                return text;
            }
            ready.await;
        }
    }
}

impl Drop for Inbox {
    fn drop(&mut self) {
        let mut q = self.shared.queue.lock().unwrap_or_else(|p| p.into_inner());
        q.closed = true;
        q.items.clear();
        drop(q);
        self.shared.taken.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(n: u32) -> Arc<str> {
        format!("state {n}").into()
    }

    #[tokio::test]
    async fn row12_states_coalesce_and_answers_stay_in_order() {
        let (out, inbox) = Outbox::new();
        assert!(out.push(Kind::State, state(1)));
        assert!(out.push(Kind::Report, "thinking".into()));
        assert!(out.send("answer a"));
        for n in 2..20_000 {
            assert!(out.push(Kind::State, state(n)), "a slow reader is never refused");
            assert!(out.push(Kind::Report, "info".into()));
        }
        assert_eq!(out.len(), 3, "the answer, the latest state and its report");
        assert_eq!(&*inbox.recv().await, "answer a");
        assert_eq!(&*inbox.recv().await, "state 19999");
        assert_eq!(&*inbox.recv().await, "info");
        assert!(out.is_empty());
    }

    #[tokio::test]
    async fn reports_beyond_the_cap_are_dropped_oldest_first_and_answers_kept() {
        let (out, inbox) = Outbox::new();
        out.send("first");
        for n in 0..1000 {
            out.push(Kind::Report, format!("info {n}").into());
        }
        assert_eq!(out.len(), OUTBOX_MESSAGES);
        assert_eq!(&*inbox.recv().await, "first");
        assert_eq!(&*inbox.recv().await, format!("info {}", 1000 - OUTBOX_MESSAGES + 1));
        drop(inbox);
        assert!(!out.send("gone"));
        assert!(out.is_closed());
    }
}
