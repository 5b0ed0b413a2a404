//! A room's task under supervision: if it dies (a panic, or a store
//! write that failed) the room is reloaded from the store and run again,
//! on several nodes under a new lease, a few times in a row at most.

use std::panic::AssertUnwindSafe;
use std::time::Duration;

use futures_util::FutureExt;
use tokio::sync::mpsc;
use tracing::{error, warn};

use super::event::Effect;
use super::owner::{Owner, LEASE_TTL};
use super::state::RoomState;
use super::task::{Exit, Msg, RoomTask};
use super::RoomSettings;
use crate::model::now_millis;
use crate::store::{Fence, Store, StoreError};

/// Restarts allowed in a row before a room is left closed (it is loaded
/// afresh when someone next asks for it).
const MAX_RESTARTS: u32 = 5;

/// A hello the registry admitted (`Registry::admit`) in the task's
/// hands: the room counts as in use for it (`Occupancy::admit`) until
/// this is dropped, when the task has published its use with the hello
/// taken, or when the task panics with it (the unwinding drops it). A
/// task that dies, and is started again without the hello it was
/// handling, so never leaves the room counted against `--max-rooms` for
/// a socket nobody holds; hellos still queued stay counted, and the run
/// started again takes them.
pub(super) struct HelloInHand(std::sync::Arc<super::Occupancy>);

impl HelloInHand {
    pub(super) fn new(occupancy: std::sync::Arc<super::Occupancy>) -> HelloInHand {
        HelloInHand(occupancy)
    }
}

impl Drop for HelloInHand {
    fn drop(&mut self) {
        self.0.taken();
    }
}

/// Reads room `code` from the store and rebuilds its state.
pub(super) async fn load(
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

/// [`load`] for a restart: on several nodes, under a new lease, if this
/// node can still have one.
async fn reload(
    store: &Store,
    settings: &RoomSettings,
    owner: Option<&Owner>,
    code: &str,
) -> Result<Option<(RoomState, Vec<Effect>, Option<Fence>)>, StoreError> {
    let fence = match owner {
        None => None,
        Some(owner) => {
            let ttl = LEASE_TTL.as_millis() as u64;
            match store.acquire(code, &owner.node, now_millis(), ttl).await? {
                Some(fence) => Some(fence),
                None => return Ok(None),
            }
        }
    };
    Ok(load(store, settings, code)
        .await?
        .map(|(state, effects)| (state, effects, fence)))
}

/// Runs a room's task, and runs it again from the store if it dies (on
/// several nodes, under a new lease: the dead task's token is fenced).
pub(super) async fn supervise(
    start: (RoomState, Vec<Effect>, Option<Fence>),
    mut inbox: mpsc::Receiver<Msg>,
    own_inbox: mpsc::WeakSender<Msg>,
    store: Store,
    settings: RoomSettings,
    owner: Option<Owner>,
    occupancy: std::sync::Arc<super::Occupancy>,
) {
    let code = start.0.code.clone();
    let mut next = Some(start);
    let mut restarts = 0;
    loop {
        let (state, effects, fence) = match next.take() {
            Some(start) => start,
            None => match reload(&store, &settings, owner.as_ref(), &code).await {
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
            fence,
            settings.clone(),
            own_inbox.clone(),
            now_millis(),
            occupancy.clone(),
        );
        let exit = AssertUnwindSafe(task.run(&mut inbox, effects))
            .catch_unwind()
            .await;
        // Whatever happened, this task's lease goes: a restart takes a new
        // one, and a stopped room is free for any node at once.
        let let_go = async {
            if let Some(fence) = fence {
                if let Err(e) = store.release(&code, fence).await {
                    warn!(room = %code, error = %e, "could not release the room's lease; it runs out");
                }
            }
        };
        match exit {
            Ok(Exit::Idle) => {
                let_go.await;
                return;
            }
            Ok(Exit::Shutdown(done)) => {
                let_go.await;
                let _ = done.send(());
                return;
            }
            Ok(Exit::Fenced) => return,
            Ok(Exit::StoreFailed) => {
                let_go.await;
                warn!(room = %code, "room restarting after a store failure")
            }
            Err(_) => {
                let_go.await;
                error!(room = %code, "room task panicked; restarting it from the store")
            }
        }
        restarts += 1;
        if restarts > MAX_RESTARTS {
            error!(room = %code, "room keeps failing; left closed until someone asks for it");
            return;
        }
        tokio::time::sleep(Duration::from_millis(50 * u64::from(restarts))).await;
    }
}
