//! The running games: at most a set number at once, each ended once no page has followed
//! it for the idle time. The bound is on engines, not only on entries: each game's engine
//! holds one of `max_games` slots until its thread has ended (search stopped and joined,
//! table freed), and a new game waits for a free slot, so however fast pages ask for new
//! games, no more than `max_games` engines are ever alive. A new game that finds every
//! slot taken ends an unfollowed game unless enough ended ones are still winding down for
//! every new game waiting: however many `new` arrive at once, each gets a game while an
//! unfollowed game can be ended.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::mpsc::Sender;
use tokio::sync::Semaphore;

use super::game::{self, Presence, ToGame};
use super::messages::NewGame;

/// How long a new game waits for an ended game's engine to wind down.
const SLOT_WAIT: Duration = Duration::from_secs(10);

pub struct Handle {
    pub tx: Sender<ToGame>,
    pub shared: Arc<Presence>,
}

impl Clone for Handle {
    fn clone(&self) -> Self {
        Handle { tx: self.tx.clone(), shared: Arc::clone(&self.shared) }
    }
}

impl Handle {
    /// Ends the game: its task stops its engine, whoever still holds a handle.
    fn end(&self) {
        // The inbox may be full of one page's messages: the end must not wait behind them.
        let tx = self.tx.clone();
        tokio::spawn(async move {
            let _ = tx.send(ToGame::End).await;
        });
    }
}

/// The running games, and the new games waiting for a slot.
struct Games {
    running: HashMap<String, Handle>,
    /// New games waiting for an ended game's engine to wind down.
    waiting: usize,
}

/// A new game waiting for a slot, counted in [`Games::waiting`] while it lives.
struct Waiting<'a>(&'a Registry);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.games().waiting -= 1;
    }
}

pub struct Registry {
    games: Mutex<Games>,
    /// One permit per engine that may be alive.
    slots: Arc<Semaphore>,
    pub max_games: usize,
    pub idle: Duration,
    pub hash_mib: usize,
}

/// A game id that another page cannot guess from its own: 64 random bits as hex.
fn new_id() -> String {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(Instant::now().elapsed().as_nanos());
    h.write_u64(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64));
    format!("{:016x}", h.finish())
}

fn full(max: usize) -> String {
    format!("the server is full: {max} games are being played (koma serve --max-games)")
}

impl Registry {
    pub fn new(max_games: usize, idle: Duration, hash_mib: usize) -> Registry {
        Registry {
            games: Mutex::new(Games { running: HashMap::new(), waiting: 0 }),
            slots: Arc::new(Semaphore::new(max_games)),
            max_games,
            idle,
            hash_mib,
        }
    }

    fn games(&self) -> std::sync::MutexGuard<'_, Games> {
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn count(&self) -> usize {
        self.games().running.len()
    }

    /// Engines alive now (a game ended but still winding down counts).
    pub fn engines(&self) -> usize {
        self.max_games - self.slots.available_permits()
    }

    /// Ends the longest-idle game that no page follows; `false` if every game is followed.
    fn evict_one(games: &mut HashMap<String, Handle>) -> bool {
        let unfollowed = games
            .iter()
            .filter(|(_, h)| h.shared.followers.load(Ordering::SeqCst) == 0)
            .min_by_key(|(_, h)| *h.shared.last_seen.lock().unwrap_or_else(|p| p.into_inner()))
            .map(|(id, _)| id.clone());
        match unfollowed.and_then(|id| games.remove(&id)) {
            Some(h) => {
                h.end();
                true
            }
            None => false,
        }
    }

    /// Starts a game; when every slot is taken, the longest-idle game that no page
    /// follows makes room (the new game waits for its engine to end), and if every game
    /// is followed the new one is refused.
    pub async fn create(&self, new: NewGame) -> Result<(String, Handle), String> {
        let prepared = game::prepare(new)?;
        let slot = {
            let mut games = self.games();
            match Arc::clone(&self.slots).try_acquire_owned() {
                Ok(permit) => Some(permit),
                Err(_) => {
                    // Games ended a moment ago are still stopping, each to make room for
                    // one new game: another is ended only if they are fewer than the new
                    // games waiting, this one included.
                    let winding_down = self.engines().saturating_sub(games.running.len());
                    if winding_down <= games.waiting && !Self::evict_one(&mut games.running) {
                        return Err(full(self.max_games));
                    }
                    games.waiting += 1;
                    None
                }
            }
        };
        let slot = match slot {
            Some(permit) => permit,
            None => {
                // Counted as waiting until this returns, or its connection drops it.
                let _waiting = Waiting(self);
                match tokio::time::timeout(SLOT_WAIT, Arc::clone(&self.slots).acquire_owned()).await {
                    Ok(Ok(permit)) => permit,
                    _ => return Err(full(self.max_games)),
                }
            }
        };
        let id = new_id();
        let (tx, shared) = game::start(id.clone(), prepared, self.hash_mib, slot);
        let handle = Handle { tx, shared };
        self.games().running.insert(id.clone(), handle.clone());
        Ok((id, handle))
    }

    pub fn get(&self, id: &str) -> Option<Handle> {
        self.games().running.get(id).filter(|h| !h.tx.is_closed()).cloned()
    }

    /// Ends the games that no page has followed for the idle time, and forgets those
    /// whose task has ended on its own.
    pub fn reap(&self) {
        let now = Instant::now();
        self.games().running.retain(|_, h| {
            let seen = *h.shared.last_seen.lock().unwrap_or_else(|p| p.into_inner());
            let keep = !h.tx.is_closed()
                && (h.shared.followers.load(Ordering::SeqCst) > 0 || now.duration_since(seen) < self.idle);
            if !keep {
                h.end();
            }
            keep
        });
    }
}
