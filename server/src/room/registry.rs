//! Finds the task of a room by its code, loading the room from the store
//! (and starting its task) on first use. A [`DashMap`] holds the handles,
//! so connecting to one room never waits on a lock held for another.
//!
//! Each room's task runs under a supervisor: if it dies (a panic, or a
//! store write that failed) the room is reloaded from the store and
//! started again; its connections are closed with a code and reconnect.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use dashmap::DashMap;
use futures_util::FutureExt;
use serde_json::Value;
use tokio::sync::mpsc;
use tracing::{error, warn};

use super::event::Effect;
use super::ids::TokenHash;
use super::state::RoomState;
use super::task::{Exit, Msg, RoomTask};
use super::{RoomHandle, RoomSettings, INBOX};
use crate::code;
use crate::games::{GameKind, GameOptions};
use crate::store::{now_millis, Store, StoreError};

/// Restarts allowed in a row before a room is left closed (it is loaded
/// afresh when someone next asks for it).
const MAX_RESTARTS: u32 = 5;

#[derive(Clone)]
pub struct Registry {
    inner: Arc<Inner>,
}

struct Inner {
    rooms: DashMap<String, RoomHandle>,
    store: Store,
    settings: RoomSettings,
    max_rooms: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    #[error("There is no room {0}.")]
    NoRoom(String),
    #[error("The server is full right now; try again in a minute.")]
    Full,
    #[error("{0}")]
    BadOptions(String),
    #[error("database error: {0}")]
    Store(#[from] StoreError),
}

impl Registry {
    pub fn new(store: Store, settings: RoomSettings, max_rooms: usize) -> Registry {
        Registry {
            inner: Arc::new(Inner {
                rooms: DashMap::new(),
                store,
                settings,
                max_rooms,
            }),
        }
    }

    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// Creates a room with a fresh code, stores it and starts its task.
    /// `host_token` (the creator's browser token) is kept only as a hash.
    pub async fn create(
        &self,
        game: &str,
        options: &Value,
        host_token: &str,
    ) -> Result<RoomHandle, RegistryError> {
        let kind = GameKind::parse(game).map_err(RegistryError::BadOptions)?;
        let options = GameOptions::parse(kind, options).map_err(RegistryError::BadOptions)?;
        self.check_capacity()?;
        // Codes are random over 31^6 ≈ 887 million values; a collision is
        // rare and simply retried.
        for _ in 0..8 {
            let state = RoomState::new(
                &code::generate(),
                options.clone(),
                Some(TokenHash::of(host_token)),
                self.inner.settings.config.clone(),
            );
            match self.inner.store.insert_room(&state.row()).await {
                Ok(()) => return Ok(self.spawn(state, Vec::new())),
                Err(StoreError::Conflict) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(RegistryError::Full)
    }

    /// The running room `code`, reloading it from the store if its task
    /// went idle or the server restarted.
    pub async fn get(&self, code: &str) -> Result<RoomHandle, RegistryError> {
        if let Some(handle) = self.running(code) {
            return Ok(handle);
        }
        let (state, effects) = load(&self.inner.store, &self.inner.settings, code)
            .await?
            .ok_or_else(|| RegistryError::NoRoom(code.to_string()))?;
        self.check_capacity()?;
        Ok(self.spawn(state, effects))
    }

    /// The handle of a room whose task is running, if any.
    pub fn running(&self, code: &str) -> Option<RoomHandle> {
        self.inner
            .rooms
            .get(code)
            .filter(|h| !h.is_closed())
            .map(|h| h.clone())
    }

    /// Rooms whose task is running.
    pub fn open_rooms(&self) -> usize {
        self.inner.rooms.iter().filter(|h| !h.is_closed()).count()
    }

    /// Closes every room's connections and waits for their tasks to finish
    /// what they were doing (so every write they began is stored).
    pub async fn shutdown(&self) {
        let handles: Vec<RoomHandle> = self.inner.rooms.iter().map(|h| h.clone()).collect();
        let all = handles.iter().map(RoomHandle::shutdown);
        let _ = tokio::time::timeout(Duration::from_secs(10), futures_util::future::join_all(all))
            .await;
        self.inner.store.close().await;
    }

    fn check_capacity(&self) -> Result<(), RegistryError> {
        self.inner.rooms.retain(|_, h| !h.is_closed());
        if self.inner.rooms.len() >= self.inner.max_rooms {
            return Err(RegistryError::Full);
        }
        Ok(())
    }

    fn spawn(&self, state: RoomState, effects: Vec<Effect>) -> RoomHandle {
        let code = state.code.clone();
        let entry = self.inner.rooms.entry(code.clone());
        if let dashmap::Entry::Occupied(e) = &entry {
            if !e.get().is_closed() {
                // Another request loaded it meanwhile; ours is dropped.
                return e.get().clone();
            }
        }
        let (tx, rx) = mpsc::channel(INBOX);
        // The room's own address, for search results; weak, so the task
        // still ends when every handle is gone.
        let own_inbox = tx.downgrade();
        let handle = RoomHandle { code, tx };
        entry.insert(handle.clone());
        let store = self.inner.store.clone();
        let settings = self.inner.settings.clone();
        tokio::spawn(supervise(state, effects, rx, own_inbox, store, settings));
        handle
    }
}

/// Reads room `code` from the store and rebuilds its state.
async fn load(
    store: &Store,
    settings: &RoomSettings,
    code: &str,
) -> Result<Option<(RoomState, Vec<Effect>)>, StoreError> {
    let Some(saved) = store.load_room(code).await? else {
        return Ok(None);
    };
    Ok(Some(RoomState::restore(
        saved,
        settings.config.clone(),
        now_millis(),
    )))
}

/// Runs a room's task, and runs it again from the store if it dies.
async fn supervise(
    state: RoomState,
    effects: Vec<Effect>,
    mut inbox: mpsc::Receiver<Msg>,
    own_inbox: mpsc::WeakSender<Msg>,
    store: Store,
    settings: RoomSettings,
) {
    let code = state.code.clone();
    let mut next = Some((state, effects));
    let mut restarts = 0;
    loop {
        let (state, effects) = match next.take() {
            Some(start) => start,
            None => match load(&store, &settings, &code).await {
                Ok(Some(start)) => start,
                Ok(None) => return,
                Err(e) => {
                    error!(room = %code, error = %e, "could not reload the room; it stays closed");
                    return;
                }
            },
        };
        let task = RoomTask::new(
            state,
            store.clone(),
            settings.clone(),
            own_inbox.clone(),
            now_millis(),
        );
        match AssertUnwindSafe(task.run(&mut inbox, effects))
            .catch_unwind()
            .await
        {
            Ok(Exit::Idle | Exit::Shutdown) => return,
            Ok(Exit::StoreFailed) => warn!(room = %code, "room restarting after a store failure"),
            Err(_) => error!(room = %code, "room task panicked; restarting it from the store"),
        }
        restarts += 1;
        if restarts > MAX_RESTARTS {
            error!(room = %code, "room keeps failing; left closed until someone asks for it");
            return;
        }
        tokio::time::sleep(Duration::from_millis(50 * u64::from(restarts))).await;
    }
}
