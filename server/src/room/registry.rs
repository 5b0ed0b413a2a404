//! Finds the task of a room by its code, loading the room from the store
//! (and starting its task) on first use.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::sync::mpsc;

use super::actor::{Room, RoomSettings};
use super::{RoomHandle, INBOX};
use crate::store::{RoomRecord, Store};
use crate::{code, games};

#[derive(Clone)]
pub struct Registry {
    inner: Arc<Inner>,
}

struct Inner {
    rooms: Mutex<HashMap<String, RoomHandle>>,
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
    Store(#[from] sqlx::Error),
}

impl Registry {
    pub fn new(store: Store, settings: RoomSettings, max_rooms: usize) -> Registry {
        Registry {
            inner: Arc::new(Inner {
                rooms: Mutex::new(HashMap::new()),
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
    pub async fn create(
        &self,
        game: &str,
        options: &Value,
        host_token: &str,
    ) -> Result<RoomHandle, RegistryError> {
        let setup = games::new_game(game, options).map_err(RegistryError::BadOptions)?;
        self.check_capacity()?;
        // Codes are random over 31^6 ≈ 887 million values; a collision is
        // rare and simply retried.
        for _ in 0..8 {
            let record = RoomRecord {
                code: code::generate(),
                game: game.to_string(),
                options: setup.options.clone(),
                host_token: host_token.to_string(),
            };
            match self.inner.store.insert_room(&record).await {
                Ok(()) => return Ok(self.spawn(record)),
                Err(sqlx::Error::Database(e)) if e.is_unique_violation() => continue,
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
        let record = self
            .inner
            .store
            .room(code)
            .await?
            .ok_or_else(|| RegistryError::NoRoom(code.to_string()))?;
        self.check_capacity()?;
        // Another request may have loaded it while we read the store.
        if let Some(handle) = self.running(code) {
            return Ok(handle);
        }
        Ok(self.spawn(record))
    }

    /// The handle of a room whose task is running, if any.
    pub fn running(&self, code: &str) -> Option<RoomHandle> {
        let rooms = self.inner.rooms.lock().unwrap_or_else(|e| e.into_inner());
        rooms.get(code).filter(|h| !h.is_closed()).cloned()
    }

    /// Rooms whose task is running.
    pub fn open_rooms(&self) -> usize {
        let rooms = self.inner.rooms.lock().unwrap_or_else(|e| e.into_inner());
        rooms.values().filter(|h| !h.is_closed()).count()
    }

    fn check_capacity(&self) -> Result<(), RegistryError> {
        let mut rooms = self.inner.rooms.lock().unwrap_or_else(|e| e.into_inner());
        rooms.retain(|_, h| !h.is_closed());
        if rooms.len() >= self.inner.max_rooms {
            return Err(RegistryError::Full);
        }
        Ok(())
    }

    fn spawn(&self, record: RoomRecord) -> RoomHandle {
        let mut rooms = self.inner.rooms.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(handle) = rooms.get(&record.code).filter(|h| !h.is_closed()) {
            return handle.clone();
        }
        let (tx, rx) = mpsc::channel(INBOX);
        // The room's own address, for bot results; weak, so the room's
        // task still ends when the registry lets go of it.
        let own_inbox = tx.downgrade();
        let handle = RoomHandle {
            code: record.code.clone(),
            tx,
        };
        let room = Room::new(
            record,
            self.inner.store.clone(),
            self.inner.settings.clone(),
            own_inbox,
        );
        tokio::spawn(room.run(rx));
        rooms.insert(handle.code.clone(), handle.clone());
        handle
    }
}
