//! Bringing a room back from the store, after a restart, a crash or an
//! idle unload: members (all offline until they reconnect), seats, host,
//! options, auto-start, scoreboard, the chat tail, and each table's game
//! in progress (or last game), rebuilt by applying its stored log to a
//! fresh game through the one transition live play uses
//! ([`GameLog::apply`]). Clocks resume with the time left as of the last
//! move: the time the room was away is charged to nobody.

use rules::clock::Clock;
use rules::Game;

use super::event::Effect;
use super::state::{Member, RoomConfig, RoomState};
use super::table::{Match, Request, Table};
use crate::game_log::GameLog;
use crate::model::ids::TableId;
use crate::model::records::{EntryRow, LiveGame, SavedRoom};

impl RoomState {
    /// The room as stored, at `now`. Returns the state and the effects to
    /// carry out at once (the computer's search if it is to move).
    pub fn restore(saved: SavedRoom, config: RoomConfig, now: u64) -> (RoomState, Vec<Effect>) {
        let room = saved.room;
        let mut state = RoomState::new(&room.code, room.options, room.host, config);
        state.main_table = room.table;
        state.tournament = saved.tournament;
        // A tournament plays at its current round's tables; otherwise the
        // room plays at its own.
        state.tables = match state.tournament.as_ref().and_then(|b| b.current()) {
            Some(round) if !round.pairings.is_empty() => {
                round.pairings.iter().map(|p| Table::new(p.table)).collect()
            }
            _ => vec![Table::new(room.table)],
        };
        state.autostart = room.autostart;
        state.solo = room.solo;
        state.rated = room.rated;
        state.start_when_seated = room.start_when_seated;
        state.public = room.public;
        state.games_played = room.games_played;
        state.next_member = room.next_member;
        state.members = saved
            .members
            .into_iter()
            .map(|m| Member {
                ratings: Vec::new(),
                id: m.id,
                token: m.token,
                name: m.name,
                seat: m.seat,
                conns: 0,
                host: m.host,
                offline_since: m.computer.is_none().then_some(now),
                computer: m.computer,
                account: m.account,
                stored: true,
                removed: m.removed,
                addr: None,
                seen_from: None,
            })
            .collect();
        if let Some(max) = state.members.iter().map(|m| m.id.0).max() {
            state.next_member = state.next_member.max(max + 1);
        }
        state.scores = saved.scores;
        state.chat = saved.chat.into_iter().collect();
        let mut effects = Vec::new();
        for (game, entries) in saved.live {
            let Some(m) = replay(&game, &entries, now) else {
                tracing::warn!(room = %state.code, game = %game.id, "a stored game did not replay; dropped");
                continue;
            };
            // A table no longer in play (an earlier round's) is history.
            let Some(t) = state.tables.iter().position(|t| t.id == game.table) else {
                continue;
            };
            state.games_played = state.games_played.max(m.number);
            state.tables[t].current = Some(m);
            state.think(t, now, &mut effects);
        }
        // No countdown comes back, a tournament's between rounds included
        // (PROTOCOL.md "What a room keeps"): the host's `start` begins the
        // next round. A countdown started again here would forget a pause,
        // and a visitor loading the room would start the round for
        // entrants who are not there.
        if state.tables.is_empty() {
            state.tables.push(Table::new(TableId::new()));
        }
        (state, effects)
    }
}

/// Replays a stored game's log on a fresh game; `None` if an entry no
/// longer fits the rules (the log was written by other rules).
fn replay(game: &LiveGame, entries: &[EntryRow], now: u64) -> Option<Match> {
    let mut log = GameLog::new(&game.options).ok()?;
    let sides = game.sides.len();
    let mut turn = vec![0; sides];
    let control = game.options.time_control(&log.game);
    let mut clock = Clock::new(control, log.game.sides());
    let mut stored = 0;
    for row in entries {
        let step = log.read(&row.entry).ok()?;
        log.apply(&step).ok()?;
        turn.clone_from(&row.turn);
        turn.resize(sides, 0);
        clock = Clock::resume(control, log.game.sides(), &row.clock);
        stored = row.seq + 1;
    }
    if let Some(side) = log.game.to_move() {
        clock.start_turn(side, now);
    }
    Some(Match {
        id: game.id,
        number: game.number,
        log,
        options: game.options.clone(),
        sides: game.sides.clone(),
        turn,
        entries: stored,
        clock,
        started_at: game.started_at,
        order: game.order,
        draw: Request::new(sides),
        takeback: Request::new(sides),
        // The stored deadline holds across restarts; a game stored without
        // one (older) gets its days from now.
        deadline: game
            .options
            .turn_ms()
            .map(|ms| game.deadline.unwrap_or(now + ms)),
    })
}
