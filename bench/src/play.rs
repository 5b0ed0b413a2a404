//! Rooms of two players playing games: setting a room up (its `sit`s
//! timed and checked), one game (its `start` timed and checked, each
//! move at its due time), and what a room's run came to, failed or not.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::client::{create_room, MatchView, Player};
use crate::schedule::{at_due, Schedule};
use crate::stats::{Latency, Timeline};

/// A CrossyRay room of two seated players, no game started.
pub struct Table {
    pub code: String,
    pub players: [Player; 2],
    /// How long each player's `sit` took to be acknowledged.
    pub sat: [Duration; 2],
}

/// A CrossyRay room (with `options`) of two seated players; a refused
/// `sit` is an error naming the room. The second player connects through
/// `peer` (another node) when given.
pub async fn two_players(
    http: &reqwest::Client,
    base: &str,
    ws_base: &str,
    peer: Option<&str>,
    options: Value,
) -> anyhow::Result<Table> {
    let (code, token) = create_room(http, base, "crossyray", options).await?;
    let mut a = Player::join(ws_base, &code, Some(&token), "A").await?;
    let peer_ws = peer.map(|p| p.replace("http://", "ws://"));
    let mut b = Player::join(peer_ws.as_deref().unwrap_or(ws_base), &code, None, "B").await?;
    let mut sat = [Duration::ZERO; 2];
    for (p, seat) in [(&mut a, 0), (&mut b, 1)] {
        let sent = Instant::now();
        let answer = p.command(json!({"type": "sit", "seat": seat})).await?;
        sat[seat] = sent.elapsed();
        anyhow::ensure!(
            answer["type"] == "ack",
            "room {code}: sit refused: {answer}"
        );
    }
    Ok(Table {
        code,
        players: [a, b],
        sat,
    })
}

/// The `sit` latencies of `tables`.
pub fn sits<'a>(tables: impl IntoIterator<Item = &'a Table>) -> Latency {
    let mut l = Latency::new();
    for d in tables.into_iter().flat_map(|t| t.sat) {
        l.record(d);
    }
    l
}

/// The player of `players` due to move in `event`'s match, and the
/// first legal move, or `None` when the game is over. A game that is
/// not over must name a seated player due and a legal move: anything
/// else is an error, so a run never ends a game early in silence.
pub fn due(players: &[Player; 2], event: &MatchView) -> anyhow::Result<Option<(usize, String)>> {
    if event.over {
        return Ok(None);
    }
    let who = event
        .to_play
        .as_deref()
        .and_then(|member| players.iter().position(|p| p.member == member));
    match (who, &event.first_legal) {
        (Some(who), Some(mv)) => Ok(Some((who, mv.clone()))),
        _ => {
            anyhow::bail!("a game that is not over with no player due or no legal move: {event:?}")
        }
    }
}

/// Plays one game in `players`' room: the host starts it (timed, a
/// refusal is an error) and whoever is due plays the first legal move
/// when `next_due()` says it is due (now, for a closed loop; `None`: time
/// is up, the game stops). Each move goes into `timeline` with when it
/// was due, sent and acknowledged. Returns false when time was up.
pub async fn play_game(
    players: &mut [Player; 2],
    timeline: &mut Timeline,
    mut next_due: impl FnMut() -> Option<Instant>,
) -> anyhow::Result<bool> {
    timeline.starts.push(players[0].start().await?);
    let mut event = players[0].next_match().await?;
    while let Some((who, mv)) = due(players, &event)? {
        let Some(at) = next_due() else {
            return Ok(false);
        };
        timeline.record(at_due(at, players[who].play(&mv)).await?);
        event = players[0].next_match().await?;
        players[1].forget();
    }
    Ok(true)
}

/// What one room's run came to: its moves (a failed room's too, up to
/// its failure) and, if it failed, why, with the slots its schedule still
/// held (for the moves it owed and never sent).
pub struct RoomRun {
    pub code: String,
    pub timeline: Timeline,
    pub failed: Option<(String, Option<Schedule>)>,
}

impl RoomRun {
    pub fn new(
        code: String,
        timeline: Timeline,
        result: anyhow::Result<()>,
        schedule: Option<Schedule>,
    ) -> RoomRun {
        RoomRun {
            code,
            timeline,
            failed: result.err().map(|e| (format!("{e:#}"), schedule)),
        }
    }
}

impl AsRef<Timeline> for RoomRun {
    fn as_ref(&self) -> &Timeline {
        &self.timeline
    }
}

/// Waits for the rooms' tasks (a task that panicked is an error).
pub async fn gather(tasks: Vec<tokio::task::JoinHandle<RoomRun>>) -> anyhow::Result<Vec<RoomRun>> {
    let mut done = Vec::with_capacity(tasks.len());
    for task in tasks {
        done.push(task.await?);
    }
    Ok(done)
}
