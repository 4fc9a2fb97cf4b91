//! The running games: at most a set number at once, each ended once no page has followed
//! it for the idle time.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::mpsc::UnboundedSender;

use super::game::{self, Shared, ToGame};
use super::messages::NewGame;

pub struct Handle {
    pub tx: UnboundedSender<ToGame>,
    pub shared: Arc<Shared>,
}

impl Clone for Handle {
    fn clone(&self) -> Self {
        Handle { tx: self.tx.clone(), shared: Arc::clone(&self.shared) }
    }
}

pub struct Registry {
    games: Mutex<HashMap<String, Handle>>,
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

impl Registry {
    pub fn new(max_games: usize, idle: Duration, hash_mib: usize) -> Registry {
        Registry { games: Mutex::new(HashMap::new()), max_games, idle, hash_mib }
    }

    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<String, Handle>> {
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn count(&self) -> usize {
        self.games().len()
    }

    /// Starts a game; when the server is full, the longest-idle game that no page follows
    /// makes room, and if every game is followed the new one is refused.
    pub fn create(&self, new: NewGame) -> Result<(String, Handle), String> {
        let mut games = self.games();
        if games.len() >= self.max_games {
            let unfollowed = games
                .iter()
                .filter(|(_, h)| h.shared.followers.load(Ordering::SeqCst) == 0)
                .min_by_key(|(_, h)| *h.shared.last_seen.lock().unwrap_or_else(|p| p.into_inner()))
                .map(|(id, _)| id.clone());
            match unfollowed {
                Some(id) => {
                    games.remove(&id);
                }
                None => {
                    return Err(format!(
                        "the server is full: {} games are being played (koma serve --max-games)",
                        self.max_games
                    ))
                }
            }
        }
        let id = new_id();
        let (tx, shared) = game::start(id.clone(), new, self.hash_mib)?;
        let handle = Handle { tx, shared };
        games.insert(id.clone(), handle.clone());
        Ok((id, handle))
    }

    pub fn get(&self, id: &str) -> Option<Handle> {
        self.games().get(id).cloned()
    }

    /// Ends the games that no page has followed for the idle time.
    pub fn reap(&self) {
        let now = Instant::now();
        self.games().retain(|_, h| {
            let seen = *h.shared.last_seen.lock().unwrap_or_else(|p| p.into_inner());
            h.shared.followers.load(Ordering::SeqCst) > 0 || now.duration_since(seen) < self.idle
        });
    }
}
