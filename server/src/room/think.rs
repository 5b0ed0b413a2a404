//! Where the computer thinks (its moves, and players' hints): on a
//! blocking thread, after taking one of the server's search slots (one
//! per core), never on the room's task. The result comes back into the
//! room's own inbox as a message naming its search; the state ignores a
//! search it no longer waits for.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use tracing::{debug, warn};

use super::msg::Msg;
use crate::bots;
use crate::games::{AnyGame, AnyMove};
use crate::model::ids::{MemberId, TableId};

/// A search in progress (the computer's move, or a hint); dropping it cancels the search.
pub(super) struct Thinking {
    pub id: u64,
    cancel: Arc<AtomicBool>,
}

impl Drop for Thinking {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// Starts search `think` for `table`; its move arrives as
/// [`Msg::BotMove`] unless the search is dropped first. A game between
/// computers only searches in the slots kept for such games
/// ([`bots::Slots::among_computers`]).
pub(super) fn start(
    room: &str,
    inbox: mpsc::WeakSender<Msg>,
    table: TableId,
    think: u64,
    ask: Ask,
) -> Thinking {
    debug!(
        room,
        think,
        level = ask.level.name(),
        budget_ms = ask.budget_ms,
        among_computers = ask.among_computers,
        "computer thinking"
    );
    search(inbox, think, ask, move |result| Msg::BotMove {
        table,
        think,
        result,
    })
}

/// What a search is asked.
pub(super) struct Ask {
    pub game: AnyGame,
    pub level: rules::Level,
    pub budget_ms: u64,
    /// Every side of the game is a computer.
    pub among_computers: bool,
    /// Whose search it is: it waits for its client's gate first.
    pub client: bots::SearchClient,
}

/// Starts hint search `hint` for `member`: Master's move for the side to
/// move, arriving as [`Msg::Hint`] unless the search is dropped first.
pub(super) fn hint(
    room: &str,
    inbox: mpsc::WeakSender<Msg>,
    member: MemberId,
    hint: u64,
    game: AnyGame,
    budget_ms: u64,
    client: bots::SearchClient,
) -> Thinking {
    debug!(room, hint, %member, budget_ms, "hint search");
    let ask = Ask {
        game,
        level: rules::Level::Master,
        budget_ms,
        among_computers: false,
        client,
    };
    search(inbox, hint, ask, move |result| Msg::Hint {
        member,
        hint,
        result,
    })
}

/// Searches `game` at `level` for `budget_ms` once a search slot is free;
/// `reply` makes the message the room's inbox receives.
fn search(
    inbox: mpsc::WeakSender<Msg>,
    id: u64,
    ask: Ask,
    reply: impl FnOnce(Option<AnyMove>) -> Msg + Send + 'static,
) -> Thinking {
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    let Ask {
        game,
        level,
        budget_ms,
        among_computers,
        client,
    } = ask;
    let budget = Duration::from_millis(budget_ms);
    let seed: u64 = rand::random();
    tokio::spawn(async move {
        // Wait for the client's turn (at most its share of the cores,
        // `bots::Gates`), then for a free core (live play before
        // analyses, games with a person before games between computers);
        // a search cancelled meanwhile never starts.
        let Some(_gate) = bots::gates().enter(client).await else {
            return;
        };
        if flag.load(Ordering::Relaxed) {
            return;
        }
        let Some(_slot) = bots::slots().for_game(among_computers).await else {
            return;
        };
        if flag.load(Ordering::Relaxed) {
            return;
        }
        let result = tokio::task::spawn_blocking(move || {
            bots::choose(
                &game,
                &rules::Think {
                    level,
                    budget,
                    cancel: &flag,
                    seed,
                },
            )
        })
        .await
        .unwrap_or_else(|e| {
            warn!(error = %e, "computer search failed");
            None
        });
        // The room may have closed meanwhile: then nobody is waiting.
        if let Some(inbox) = inbox.upgrade() {
            let _ = inbox.send(reply(result)).await;
        }
    });
    Thinking { id, cancel }
}
