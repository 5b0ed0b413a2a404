//! Finds the task of a room by its code, loading the room from the store
//! (and starting its task) on first use. A [`DashMap`] holds the handles,
//! so connecting to one room never waits on a lock held for another.
//!
//! Each room's task runs under a supervisor (`supervisor.rs`): if it dies
//! (a panic, or a store write that failed) the room is reloaded from the
//! store and started again; its connections are closed with a code and
//! reconnect.
//!
//! On several nodes ([`Owner`], `owner.rs`), a room runs on the node that holds its
//! lease (`store/lease.rs`): [`Registry::route`] either runs the room
//! here, taking a free or expired lease, or names the node that owns it,
//! for the connection to be forwarded there (`cluster/`). A new room has
//! no lease until the first node asked for it takes one, so a proxy that
//! sends a room code's requests to one node keeps the room there. The registry
//! renews its rooms' leases, stops a room whose lease another node took,
//! and lets its leases go when a room goes idle or the node shuts down.

use std::sync::Arc;
use std::time::Duration;

use dashmap::DashMap;
use tokio::sync::mpsc;
use tracing::warn;

use super::event::Effect;
use super::msg::Msg;
use super::owner::{Owner, LEASE_TTL, RENEW_EVERY};
use super::seated::Invitee;
use super::state::RoomState;
use super::supervisor::{load, supervise};
use super::{RoomHandle, RoomSettings, INBOX};
use crate::code;
use crate::games::{GameKind, GameOptions, SentOptions};
use crate::model::ids::TokenHash;
use crate::model::now_millis;
use crate::store::{Fence, Store, StoreError};

/// Where a room runs.
pub enum Route {
    /// Here.
    Local(RoomHandle),
    /// On this other node, which answers over NATS.
    Remote(String),
}

#[derive(Clone)]
pub struct Registry {
    inner: Arc<Inner>,
}

struct Inner {
    rooms: DashMap<String, RoomHandle>,
    store: Store,
    settings: RoomSettings,
    max_rooms: usize,
    owner: Option<Owner>,
    /// One claim at a time per room code on this node, so two requests
    /// never take the same lease twice (the second take would fence the
    /// first's room).
    claims: DashMap<String, Arc<tokio::sync::Mutex<()>>>,
    /// One hello at a time checks the cap ([`Registry::admit`]).
    admitting: std::sync::Mutex<()>,
}

#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    #[error("There is no room {0}.")]
    NoRoom(String),
    #[error("The server is full right now; try again in a minute.")]
    Full,
    #[error("The room is moving to another server; try again in a moment.")]
    Moving,
    #[error("{0}")]
    BadOptions(String),
    /// Options a solo room cannot have (`solo_room`): a knockout
    /// tournament or a turn-based game is never one person against the
    /// computer.
    #[error("{0}")]
    SoloRoom(String),
    #[error("database error: {0}")]
    Store(#[from] StoreError),
}

impl Registry {
    pub fn new(store: Store, settings: RoomSettings, max_rooms: usize) -> Registry {
        Registry::with_owner(store, settings, max_rooms, None)
    }

    /// A registry of one node among several: rooms run under leases.
    pub fn with_owner(
        store: Store,
        settings: RoomSettings,
        max_rooms: usize,
        owner: Option<Owner>,
    ) -> Registry {
        let registry = Registry {
            inner: Arc::new(Inner {
                rooms: DashMap::new(),
                store,
                settings,
                max_rooms,
                owner,
                claims: DashMap::new(),
                admitting: std::sync::Mutex::new(()),
            }),
        };
        if registry.inner.owner.is_some() {
            tokio::spawn(renew_leases(Arc::downgrade(&registry.inner)));
        }
        registry
    }

    /// This node's id, on several nodes.
    pub fn node(&self) -> Option<&str> {
        self.inner.owner.as_ref().map(|o| o.node.as_str())
    }

    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// Creates a room with a fresh code and stores it; answers its code.
    /// `host_token` (the creator's browser token) is kept only as a hash.
    ///
    /// On one node the room's task starts here. On several, no node takes
    /// the room yet: the first node asked for it ([`Registry::route`], a
    /// socket or `GET /api/rooms/CODE`) takes its lease and loads it, so a
    /// proxy that sends a room code's requests to one node (the shipped
    /// `deploy/nginx.conf` hashes it) keeps the room's sockets on its owner.
    pub async fn create(
        &self,
        options: GameOptions,
        host_token: &str,
        solo: bool,
    ) -> Result<String, RegistryError> {
        Registry::check_solo(&options, solo)?;
        self.check_capacity()?;
        // Codes are random over 31^6 ≈ 887 million values; a collision is
        // rare and simply retried.
        for _ in 0..8 {
            let mut state = RoomState::new(
                &code::generate(),
                options.clone(),
                Some(TokenHash::of(host_token)),
                self.inner.settings.config.clone(),
            );
            state.solo = solo;
            match self.inner.store.insert_room(&state.row()).await {
                Ok(()) => {
                    let code = state.code.clone();
                    if self.inner.owner.is_none() {
                        self.spawn(state, Vec::new(), None);
                    }
                    return Ok(code);
                }
                Err(StoreError::Conflict) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(RegistryError::Full)
    }

    /// A solo room's options keep it one person against the computer: no
    /// knockout tournament, no turn-based game (`solo_room`, PROTOCOL.md
    /// "Hosts"; `RoomState::refuse_if_solo` checks the same later).
    pub fn check_solo(options: &GameOptions, solo: bool) -> Result<(), RegistryError> {
        match super::state::solo_refusal(options) {
            Some(message) if solo => Err(RegistryError::SoloRoom(message.to_string())),
            _ => Ok(()),
        }
    }

    /// A new room's game and options as the game reads them, or why not
    /// (`bad_options`).
    pub fn parse_options(game: &str, options: &SentOptions) -> Result<GameOptions, RegistryError> {
        let kind = GameKind::parse(game).map_err(RegistryError::BadOptions)?;
        options
            .json()
            .and_then(|options| GameOptions::parse_for_play(kind, options))
            .map_err(RegistryError::BadOptions)
    }

    /// A fresh room where `players` sit in order (seat i), rated if
    /// `rated`, whose first game starts as soon as all of them are online
    /// (`room/seated.rs`): for players who found each other (quick
    /// pairing, a challenge). Its members are stored before it answers.
    /// On several nodes, as [`Registry::create`], the room is left for the
    /// first node asked for it: the members are written under a lease
    /// taken and let go at once.
    pub async fn create_seated(
        &self,
        options: &GameOptions,
        rated: bool,
        players: Vec<Invitee>,
    ) -> Result<String, RegistryError> {
        super::seated::check(options, players.len()).map_err(RegistryError::BadOptions)?;
        self.check_capacity()?;
        for _ in 0..8 {
            let (state, writes) = RoomState::seated(
                &code::generate(),
                options.clone(),
                rated,
                &players,
                self.inner.settings.config.clone(),
                now_millis(),
            );
            match self.inner.store.insert_room(&state.row()).await {
                Ok(()) => {
                    let code = state.code.clone();
                    let fence = self.first_lease(&code).await?;
                    self.inner.store.write_as(&code, fence, writes).await?;
                    match fence {
                        None => {
                            self.spawn(state, Vec::new(), None);
                        }
                        Some(fence) => self.inner.store.release(&code, fence).await?,
                    }
                    return Ok(code);
                }
                Err(StoreError::Conflict) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(RegistryError::Full)
    }

    /// On several nodes, a lease on a room this node just created, for
    /// writing its first rows.
    async fn first_lease(&self, code: &str) -> Result<Option<Fence>, RegistryError> {
        match &self.inner.owner {
            None => Ok(None),
            Some(owner) => Ok(Some(
                self.inner
                    .store
                    .acquire(
                        code,
                        &owner.node,
                        now_millis(),
                        LEASE_TTL.as_millis() as u64,
                    )
                    .await?
                    .ok_or(RegistryError::Moving)?,
            )),
        }
    }

    /// The running room `code`, reloading it from the store if its task
    /// went idle or the server restarted; on several nodes, only if this
    /// node can own it (else `Moving`: see [`Registry::route`]).
    pub async fn get(&self, code: &str) -> Result<RoomHandle, RegistryError> {
        match self.route(code).await? {
            Route::Local(handle) => Ok(handle),
            Route::Remote(_) => Err(RegistryError::Moving),
        }
    }

    /// Where room `code` runs: here (loading it, and on several nodes
    /// taking its lease), or on the node that holds its lease. A lease
    /// whose node does not answer is waited out (at most [`LEASE_TTL`])
    /// and taken.
    pub async fn route(&self, code: &str) -> Result<Route, RegistryError> {
        if let Some(handle) = self.running(code) {
            // A room in memory but not in use counts once a socket comes:
            // the cap holds for it as for one loaded from the store.
            if !handle.in_use() {
                self.check_capacity()?;
            }
            return Ok(Route::Local(handle));
        }
        let Some(owner) = self.inner.owner.clone() else {
            let (state, effects) = load(&self.inner.store, &self.inner.settings, code)
                .await?
                .ok_or_else(|| RegistryError::NoRoom(code.to_string()))?;
            self.check_capacity()?;
            return Ok(Route::Local(self.spawn(state, effects, None)));
        };
        if self.inner.store.room(code).await?.is_none() {
            return Err(RegistryError::NoRoom(code.to_string()));
        }
        let claim = self
            .inner
            .claims
            .entry(code.to_string())
            .or_default()
            .clone();
        let claiming = claim.lock().await;
        let route = self.claim(code, &owner).await;
        drop(claiming);
        drop(claim);
        // The lock goes with the last request that waited on it.
        self.inner
            .claims
            .remove_if(code, |_, lock| Arc::strong_count(lock) == 1);
        route
    }

    /// [`Registry::route`] for one node of several, one request at a time
    /// per room code.
    async fn claim(&self, code: &str, owner: &Owner) -> Result<Route, RegistryError> {
        let give_up = tokio::time::Instant::now() + LEASE_TTL + Duration::from_secs(2);
        loop {
            if let Some(handle) = self.running(code) {
                return Ok(Route::Local(handle));
            }
            let store = &self.inner.store;
            let ttl = LEASE_TTL.as_millis() as u64;
            if let Some(fence) = store.acquire(code, &owner.node, now_millis(), ttl).await? {
                let loaded = match self.check_capacity() {
                    Ok(()) => load(store, &self.inner.settings, code).await,
                    Err(e) => {
                        let _ = store.release(code, fence).await;
                        return Err(e);
                    }
                };
                let Some((state, effects)) = loaded? else {
                    let _ = store.release(code, fence).await;
                    return Err(RegistryError::NoRoom(code.to_string()));
                };
                return Ok(Route::Local(self.spawn(state, effects, Some(fence))));
            }
            if let Some(lease) = store.lease(code).await? {
                if lease.node != owner.node && (owner.alive)(lease.node.clone()).await {
                    return Ok(Route::Remote(lease.node));
                }
            }
            if tokio::time::Instant::now() >= give_up {
                return Err(RegistryError::Moving);
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
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

    /// A socket's `hello` into `room`, a handle from [`Registry::route`]:
    /// a room not in use (left by everyone, or loaded and not yet
    /// joined, by this socket's upgrade or another's) counts against
    /// `--max-rooms` from its first hello, so the cap is checked again
    /// here, one hello at a time: sockets upgraded together, before any
    /// said hello, cannot open more rooms than the cap. Once admitted
    /// the room counts as in use until its task has taken the hello
    /// (`Occupancy::admit`), or died with it in hand (`HelloInHand`,
    /// `supervisor.rs`: the run started again does not count it).
    pub fn admit(&self, room: &RoomHandle) -> Result<(), RegistryError> {
        let _one_at_a_time = self
            .inner
            .admitting
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if !room.in_use() {
            self.check_capacity()?;
        }
        room.occupancy.admit();
        Ok(())
    }

    /// `--max-rooms`, counting the rooms in use (see
    /// [`Registry::make_room_for_unused`] for the others).
    fn check_capacity(&self) -> Result<(), RegistryError> {
        self.inner.rooms.retain(|_, h| !h.is_closed());
        let in_use = self.inner.rooms.iter().filter(|h| h.in_use()).count();
        if in_use >= self.inner.max_rooms {
            return Err(RegistryError::Full);
        }
        Ok(())
    }

    fn spawn(&self, state: RoomState, effects: Vec<Effect>, fence: Option<Fence>) -> RoomHandle {
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
        let occupancy = Arc::new(super::Occupancy::default());
        let handle = RoomHandle {
            code,
            tx,
            fence,
            since: tokio::time::Instant::now(),
            occupancy: occupancy.clone(),
        };
        entry.insert(handle.clone());
        let store = self.inner.store.clone();
        let settings = self.inner.settings.clone();
        let owner = self.inner.owner.clone();
        tokio::spawn(supervise(
            (state, effects, fence),
            rx,
            own_inbox,
            store,
            settings,
            owner,
            occupancy,
        ));
        self.make_room_for_unused();
        handle
    }

    /// Rooms not in use (no socket attached and no game on a clock:
    /// made and not yet opened, loaded by a lookup, or left by everyone)
    /// do not count against `--max-rooms` ([`Registry::check_capacity`]),
    /// so a crowd making rooms, or joining and leaving them, cannot keep
    /// others from making and opening theirs. Their own number is bounded
    /// by the same figure: past it, the oldest loaded are asked to leave
    /// memory (`Msg::Unload`, which the room's task checks again; they
    /// stay stored and load again for their next socket).
    fn make_room_for_unused(&self) {
        let max = self.inner.max_rooms;
        let mut unused: Vec<(tokio::time::Instant, RoomHandle)> = self
            .inner
            .rooms
            .iter()
            .filter(|h| !h.is_closed() && !h.in_use())
            .map(|h| (h.since, h.clone()))
            .collect();
        if unused.len() <= max {
            return;
        }
        let over = unused.len() - max;
        unused.sort_by_key(|(since, _)| *since);
        for (_, handle) in unused.into_iter().take(over) {
            // A full inbox is a busy room: left for the next time.
            let _ = handle.tx.try_send(Msg::Unload);
        }
    }
}

/// Every `RENEW_EVERY`, extends the leases of this node's running rooms,
/// all in one statement. A room whose lease another node took (or that
/// ran out, this node having been paused) is stopped: its connections
/// reconnect and reach the room's owner; its writes were already refused.
///
/// A node that cannot reach the store cannot renew: its leases run out
/// and another node may take the rooms over. Its writes are fenced, but
/// it would go on answering the rooms' sockets (joins, snapshots) from a
/// copy no longer the room's, so it steps down first: a room whose lease
/// may have run out by now (`LEASE_TTL` after the last renewal that
/// answered, or after the room was taken, less `STEP_DOWN_EARLY` for the
/// nodes' clocks) is stopped here like a lost one. A renewal that takes
/// longer than `RENEW_EVERY` counts as failed for that turn.
async fn renew_leases(inner: std::sync::Weak<Inner>) {
    let mut every = tokio::time::interval(RENEW_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // When the last renewal that answered was asked: every lease renewed
    // then runs until this plus LEASE_TTL.
    let mut renewed = tokio::time::Instant::now();
    loop {
        every.tick().await;
        let Some(inner) = inner.upgrade() else {
            return;
        };
        let Some(owner) = &inner.owner else {
            return;
        };
        let ttl = LEASE_TTL.as_millis() as u64;
        // Rooms taken while the renewal runs are not in its answer.
        let asked = tokio::time::Instant::now();
        let renewal = inner.store.renew_all(&owner.node, now_millis(), ttl);
        let lost: Vec<RoomHandle> = match tokio::time::timeout(RENEW_EVERY, renewal).await {
            Ok(Ok(kept)) => {
                renewed = asked;
                let kept: std::collections::HashSet<(String, Fence)> = kept.into_iter().collect();
                inner
                    .rooms
                    .iter()
                    .filter(|h| !h.is_closed() && h.since < asked)
                    .filter(|h| {
                        h.fence
                            .is_some_and(|f| !kept.contains(&(h.code.clone(), f)))
                    })
                    .map(|h| h.clone())
                    .collect()
            }
            failed => {
                match failed {
                    Ok(Err(e)) => warn!(error = %e, "could not renew the rooms' leases"),
                    _ => warn!("the renewal of the rooms' leases did not answer in time"),
                }
                let now = tokio::time::Instant::now();
                inner
                    .rooms
                    .iter()
                    .filter(|h| !h.is_closed() && h.fence.is_some())
                    .filter(|h| lease_may_have_run_out(renewed.max(h.since), now))
                    .map(|h| h.clone())
                    .collect()
            }
        };
        for handle in lost {
            warn!(room = %handle.code, "this node no longer holds the room's lease; stopping it here");
            inner
                .rooms
                .remove_if(&handle.code, |_, h| h.fence == handle.fence);
            tokio::spawn(async move { handle.shutdown().await });
        }
    }
}

/// How much sooner than its lease's end a node that cannot renew stops
/// a room: room for the nodes' clocks to differ (another node takes the
/// room over by its own clock).
const STEP_DOWN_EARLY: std::time::Duration = std::time::Duration::from_millis(500);

/// Whether a lease last renewed (or taken) at `since` may have run out
/// by `now`, as another node's clock may see it.
fn lease_may_have_run_out(since: tokio::time::Instant, now: tokio::time::Instant) -> bool {
    now >= since + LEASE_TTL - STEP_DOWN_EARLY
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::super::task::PANIC_ON_HELLO;
    use super::super::tests::{crossyray, hello_real, HOST};
    use super::*;
    use crate::model::ConnId;

    /// A registry on a fresh SQLite store in `dir` with `--max-rooms`
    /// `max_rooms`.
    async fn registry_in(dir: &std::path::Path, max_rooms: usize) -> Registry {
        let store = Store::open(None, dir).await.unwrap();
        let settings = RoomSettings {
            config: super::super::RoomConfig::default(),
            idle_after: Duration::from_secs(600),
            public_url: None,
        };
        Registry::new(store, settings, max_rooms)
    }

    /// Waits until the room's task (started again after a panic) answers.
    async fn answering(room: &RoomHandle) {
        tokio::time::timeout(Duration::from_secs(5), async {
            while room.info().await.is_err() {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
        .await
        .expect("the room runs again");
    }

    /// A hello the registry admitted (`admit`) counts the room in use
    /// until its task takes it. When the task panics with that hello in
    /// hand, the supervisor starts the room again without it: the
    /// admission goes with the hello, so the room (nobody attached, no
    /// clock) no longer counts against `--max-rooms`, and another room
    /// opens under a cap of one. A hello that reaches the room again
    /// counts once, and not after its socket goes.
    #[tokio::test]
    async fn a_hello_lost_in_a_panic_does_not_keep_its_room_counted() {
        let dir = tempfile::tempdir().unwrap();
        let registry = registry_in(dir.path(), 1).await;
        let code = registry.create(crossyray(), HOST, false).await.unwrap();
        let room = registry.running(&code).expect("runs on one node");
        registry.admit(&room).expect("the first room in use");
        assert!(room.in_use(), "admitted: in use until the task takes it");
        let (_queue, _closer) = hello_real(&room, 1, HOST, Some(PANIC_ON_HELLO)).await;
        answering(&room).await;
        assert!(!room.is_closed(), "the same room, started again");
        assert!(
            !room.in_use(),
            "the hello died with the task: nobody is attached"
        );
        // A cap of one: the other room opens.
        let other = registry.create(crossyray(), HOST, false).await.unwrap();
        let other = registry.running(&other).expect("made");
        registry.admit(&other).expect("one room in use of one");
        let (_other_queue, _) = hello_real(&other, 2, HOST, Some("Lan")).await;
        answering(&other).await;
        assert!(other.in_use());
        assert!(
            matches!(registry.admit(&room), Err(RegistryError::Full)),
            "the crashed room counts again only for a new hello"
        );
        other.detach(ConnId(2)).await.unwrap();
        answering(&other).await;
        assert!(!other.in_use(), "its socket gone");
        // Not in use, the first room may have left memory to make room
        // for the other (`make_room_for_unused`): it loads again.
        let room = registry.get(&code).await.expect("the cap has room");
        registry.admit(&room).expect("the cap has room");
        let (_queue, _) = hello_real(&room, 3, HOST, Some("Minh")).await;
        answering(&room).await;
        assert!(room.in_use(), "its socket attached");
        room.detach(ConnId(3)).await.unwrap();
        answering(&room).await;
        assert!(!room.in_use(), "counted once: nothing left over");
    }
}
