//! The room task: owns one room's state and applies commands in order.
//!
//! Each client command goes through the same two steps (as mini-redis's
//! `cmd/*.rs`): check it against the state, answering `error` and changing
//! nothing if it does not fit; then apply it and broadcast the result as
//! one versioned event.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use rand::seq::SliceRandom;
use rules::clock::Clock;
use rules::{EndReason, Outcome, Side, TimeControl};
use serde_json::{json, Value};
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tracing::{debug, info, warn};

use super::views::ScoreRow;
use super::{Outbox, RoomCommand, RoomInfo};
use crate::bots::{self, Level};
use crate::games::{self, DynGame, Seating, TEAM_SEATS};
use crate::protocol::{self, Command, Order, Refusal};
use crate::store::{self, GameRecord, RoomRecord, Store};
use crate::validate;

/// Chat lines kept for people who join later.
const CHAT_HISTORY: usize = 50;

/// Timing rules shared by every room of a server.
#[derive(Clone, Debug)]
pub struct RoomSettings {
    /// How long a player may stay offline during their game.
    pub abandon_after: Duration,
    /// How long a room with nobody online keeps its task.
    pub idle_after: Duration,
    /// Public base URL for invite links, if the operator set one.
    pub public_url: Option<String>,
    /// Master's time per move; weaker levels think a share of it.
    pub bot_budget: Duration,
    /// How long after a game ends the next one starts by itself (if the
    /// room has auto-start on and every seat is still taken and online).
    pub autostart_after: Duration,
}

pub(super) struct Member {
    pub id: u32,
    pub token: String,
    pub name: Option<String>,
    pub seat: Option<usize>,
    /// Open connections (a member may have several tabs).
    pub conns: u32,
    pub host: bool,
    pub offline_since: Option<Instant>,
    /// Set for the computer player the host seated: it has no token and
    /// no connection, and is always online.
    pub computer: Option<Level>,
    /// The username when the member's token is a logged-in session (as of
    /// its latest hello), `None` for guests.
    pub account: Option<String>,
}

impl Member {
    pub fn online(&self) -> bool {
        self.conns > 0 || self.computer.is_some()
    }
}

/// A computer player's search in progress. Dropping it cancels the
/// search, so replacing or clearing `Room::thinking` is all it takes to
/// stop a search whose result is no longer wanted.
struct Thinking {
    id: u64,
    cancel: Arc<AtomicBool>,
}

impl Drop for Thinking {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

struct Subscriber {
    member: u32,
    outbox: Outbox,
    kick: CancellationToken,
    base_url: String,
}

/// Someone playing in a game.
#[derive(Clone, Debug)]
pub(super) struct Player {
    pub member: u32,
    pub name: String,
    /// The computer's level when the computer plays, `None` for people.
    pub computer: Option<Level>,
}

pub(super) struct Match {
    pub number: u32,
    pub game: Box<dyn DynGame>,
    /// Who plays each side: one player, or a Quoridor team whose members
    /// take the side's turns in rotation, in this order.
    pub sides: Vec<Vec<Player>>,
    /// Per side, the index in `sides[s]` of the member whose turn is next.
    pub turn: Vec<usize>,
    /// Sides that resigned or abandoned (their pawn is gone, the game may
    /// go on without them).
    pub gone: Vec<bool>,
    pub moves: Vec<String>,
    /// The side that played each move (with 3-8 pawns, and after a pawn
    /// leaves, turn order alone cannot tell).
    pub move_sides: Vec<Side>,
    pub clock: Clock,
    pub started_at: i64,
    pub order: Order,
}

impl Match {
    fn is_running(&self) -> bool {
        self.game.outcome().is_none()
    }

    fn side_of(&self, member: u32) -> Option<Side> {
        self.sides
            .iter()
            .position(|team| team.iter().any(|p| p.member == member))
            .map(|i| Side(i as u8))
    }

    /// The player who plays `side`'s next turn.
    pub(super) fn player(&self, side: Side) -> Option<&Player> {
        let team = self.sides.get(side.index())?;
        team.get(self.turn[side.index()])
    }

    /// After `side` took a turn: the next member of its team in rotation,
    /// skipping members who are offline while someone else is online.
    fn rotate(&mut self, side: Side, online: &[u32]) {
        let s = side.index();
        let Some(team) = self.sides.get(s) else {
            return;
        };
        let n = team.len();
        let next = (1..=n)
            .map(|k| (self.turn[s] + k) % n)
            .find(|&i| online.contains(&team[i].member))
            .unwrap_or((self.turn[s] + 1) % n);
        self.turn[s] = next;
    }

    /// Names for the stored record: one per side, a team's joined by " + ".
    fn side_names(&self) -> Vec<String> {
        self.sides
            .iter()
            .map(|team| {
                team.iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(" + ")
            })
            .collect()
    }
}

/// The auto-start countdown between games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Countdown {
    /// The next game starts at this room time (ms since `epoch`).
    Running { at_ms: u64 },
    /// The host paused it with this much left.
    Paused { left_ms: u64 },
}

pub struct Room {
    pub(super) code: String,
    pub(super) game_name: String,
    pub(super) options: Value,
    host_token: String,
    pub(super) seats: usize,
    pub(super) seating: Seating,
    /// Room setting: start the next game by itself after one ends.
    pub(super) autostart: bool,
    pub(super) countdown: Option<Countdown>,
    version: u64,
    pub(super) members: Vec<Member>,
    next_member: u32,
    subscribers: HashMap<u64, Subscriber>,
    pub(super) current: Option<Match>,
    games_played: u32,
    pub(super) scores: Vec<ScoreRow>,
    pub(super) chat: VecDeque<Value>,
    /// Clocks count milliseconds from here.
    epoch: Instant,
    /// Since when nobody is connected.
    empty_since: Option<Instant>,
    store: Store,
    settings: RoomSettings,
    /// The room's own inbox, where bot results come back as
    /// [`RoomCommand::BotMove`]. Weak so the room can still close.
    own_inbox: mpsc::WeakSender<RoomCommand>,
    /// The computer's current search, if it is the computer's turn.
    thinking: Option<Thinking>,
    thinks_started: u64,
}

type Answer = Result<Option<Value>, Refusal>;

impl Room {
    pub fn new(
        record: RoomRecord,
        store: Store,
        settings: RoomSettings,
        own_inbox: mpsc::WeakSender<RoomCommand>,
    ) -> Room {
        let seating = games::new_game(&record.game, &record.options)
            .map(|s| s.seating)
            .unwrap_or(Seating::PerSide(2));
        Room {
            code: record.code,
            game_name: record.game,
            options: record.options,
            host_token: record.host_token,
            seats: seating.seats(),
            seating,
            autostart: true,
            countdown: None,
            version: 0,
            members: Vec::new(),
            next_member: 1,
            subscribers: HashMap::new(),
            current: None,
            games_played: 0,
            scores: Vec::new(),
            chat: VecDeque::new(),
            epoch: Instant::now(),
            empty_since: Some(Instant::now()),
            store,
            settings,
            own_inbox,
            thinking: None,
            thinks_started: 0,
        }
    }

    /// The room's life: commands and timers until it has been empty for
    /// `idle_after`.
    pub async fn run(mut self, mut inbox: mpsc::Receiver<RoomCommand>) {
        info!(room = %self.code, "room opened");
        loop {
            let deadline = self.next_deadline();
            tokio::select! {
                command = inbox.recv() => match command {
                    Some(command) => self.handle(command),
                    None => break,
                },
                _ = sleep_until(deadline), if deadline.is_some() => {
                    if self.on_timer(Instant::now()) {
                        break;
                    }
                }
            }
        }
        // Dropping the room drops `thinking`, which cancels a search.
        info!(room = %self.code, "room closed (idle)");
    }

    fn handle(&mut self, command: RoomCommand) {
        match command {
            RoomCommand::Attach {
                conn,
                id,
                token,
                name,
                outbox,
                kick,
                base_url,
                account,
            } => self.attach(conn, id, token, name, outbox, kick, base_url, account),
            RoomCommand::Detach { conn } => self.detach(conn),
            RoomCommand::Client { conn, id, command } => {
                let Some(member) = self.subscribers.get(&conn).map(|s| s.member) else {
                    return;
                };
                let kind = command.kind();
                let span = tracing::debug_span!("command", room = %self.code, member, kind, id);
                let _enter = span.enter();
                let answer = self.apply(member, command);
                let text = match answer {
                    Ok(extra) => protocol::ack(id, extra),
                    Err(refusal) => {
                        debug!(code = refusal.code, message = %refusal.message, "refused");
                        refusal.to_message(Some(id))
                    }
                };
                self.send_to(conn, text);
            }
            RoomCommand::Info { reply } => {
                let _ = reply.send(self.info());
            }
            RoomCommand::BotMove { think, result } => self.bot_moved(think, result),
        }
    }

    fn info(&self) -> RoomInfo {
        RoomInfo {
            code: self.code.clone(),
            game: self.game_name.clone(),
            options: self.options.clone(),
            players: self.members.iter().filter(|m| m.seat.is_some()).count(),
            spectators: self.spectator_count(),
        }
    }

    // ----- connections -------------------------------------------------

    #[allow(clippy::too_many_arguments)]
    fn attach(
        &mut self,
        conn: u64,
        id: i64,
        token: Option<String>,
        name: Option<String>,
        outbox: Outbox,
        kick: CancellationToken,
        base_url: String,
        account: Option<crate::store::Account>,
    ) {
        let token = token.filter(|t| valid_token(t)).unwrap_or_else(new_token);
        let index = match self.members.iter().position(|m| m.token == token) {
            Some(index) => index,
            None => {
                let member = Member {
                    id: self.next_member,
                    host: token == self.host_token,
                    token: token.clone(),
                    name: None,
                    seat: None,
                    conns: 0,
                    offline_since: None,
                    computer: None,
                    account: None,
                };
                self.next_member += 1;
                self.members.push(member);
                self.members.len() - 1
            }
        };
        let member = &mut self.members[index];
        if member.name.is_none() {
            // The name the browser remembers, else the account's.
            member.name = name
                .and_then(|n| validate::name(&n).ok())
                .or_else(|| account.as_ref().map(|a| a.display_name.clone()));
        }
        member.account = account.map(|a| a.username);
        member.conns += 1;
        member.offline_since = None;
        let member_id = member.id;
        self.empty_since = None;
        self.subscribers.insert(
            conn,
            Subscriber {
                member: member_id,
                outbox,
                kick,
                base_url,
            },
        );
        debug!(room = %self.code, member = member_id, conn, "attached");
        let ack = protocol::ack(
            id,
            Some(json!({"token": token, "member": member_tag(member_id)})),
        );
        self.send_to(conn, ack);
        let snapshot = self.snapshot(conn);
        self.send_to(conn, snapshot);
        self.broadcast_members();
    }

    fn detach(&mut self, conn: u64) {
        let Some(sub) = self.subscribers.remove(&conn) else {
            return;
        };
        sub.kick.cancel();
        if let Some(member) = self.member_mut(sub.member) {
            member.conns = member.conns.saturating_sub(1);
            if member.conns == 0 {
                member.offline_since = Some(Instant::now());
            }
        }
        if self.subscribers.is_empty() {
            self.empty_since = Some(Instant::now());
        }
        self.broadcast_members();
    }

    fn send_to(&mut self, conn: u64, text: String) {
        let sent = match self.subscribers.get(&conn) {
            Some(sub) => sub.outbox.try_send(Utf8Bytes::from(text)),
            None => Ok(()),
        };
        if let Err(e) = sent {
            self.drop_unreachable(conn, e);
        }
    }

    /// Sends `event` to everyone with the next version number. A
    /// connection whose queue is full is dropped rather than allowed to
    /// stall the room; it resyncs from a snapshot when it reconnects.
    fn broadcast(&mut self, mut event: Value) {
        self.version += 1;
        event["v"] = json!(self.version);
        let text = Utf8Bytes::from(event.to_string());
        let failed: Vec<(u64, TrySendError<Utf8Bytes>)> = self
            .subscribers
            .iter()
            .filter_map(|(&conn, sub)| sub.outbox.try_send(text.clone()).err().map(|e| (conn, e)))
            .collect();
        for (conn, e) in failed {
            self.drop_unreachable(conn, e);
        }
    }

    /// A connection we could not queue a message for: either it stopped
    /// reading (queue full: drop it, it resyncs on reconnect) or it is
    /// already closing (its `Detach` is on the way).
    fn drop_unreachable(&mut self, conn: u64, error: TrySendError<Utf8Bytes>) {
        if matches!(error, TrySendError::Full(_)) {
            warn!(room = %self.code, conn, "dropping a connection whose send queue is full");
        }
        self.detach(conn);
    }

    // ----- commands ----------------------------------------------------

    fn apply(&mut self, member: u32, command: Command) -> Answer {
        match command {
            Command::Hello { .. } => Err(Refusal::new("bad_message", "You already said hello.")),
            Command::Ping => Ok(None),
            Command::Name { name } => self.set_name(member, &name),
            Command::Sit { seat } => self.sit(member, seat),
            Command::Stand => self.stand(member),
            Command::Start { order } => self.start(member, order),
            Command::Move { mv } => self.play(member, &mv),
            Command::Resign => self.resign(member),
            Command::Options { game, options } => {
                self.set_options(member, game.as_deref(), &options)
            }
            Command::Computer { seat, level } => self.seat_computer(member, seat, level),
            Command::Chat { text } => self.say(member, &text),
            Command::Countdown { paused } => self.pause_countdown(member, paused),
            Command::Autostart { enabled } => self.set_autostart(member, enabled),
        }
    }

    fn set_name(&mut self, member: u32, name: &str) -> Answer {
        let name = validate::name(name).map_err(|m| Refusal::new("bad_name", m))?;
        if let Some(m) = self.member_mut(member) {
            m.name = Some(name);
        }
        self.broadcast_members();
        Ok(None)
    }

    fn sit(&mut self, member: u32, seat: usize) -> Answer {
        self.refuse_if_running()?;
        let me = self.member(member).ok_or_else(unknown_member)?;
        if me.name.is_none() {
            return Err(Refusal::new(
                "bad_name",
                "Type a name before taking a seat.",
            ));
        }
        if seat >= self.seats {
            return Err(Refusal::new(
                "no_seat",
                format!("This game has seats 1 to {}.", self.seats),
            ));
        }
        if let Some(other) = self
            .members
            .iter()
            .find(|m| m.seat == Some(seat) && m.id != member)
        {
            return Err(Refusal::new(
                "no_seat",
                format!(
                    "{} already sits there.",
                    other.name.as_deref().unwrap_or("Someone")
                ),
            ));
        }
        if let Some(m) = self.member_mut(member) {
            m.seat = Some(seat);
        }
        self.broadcast_members();
        Ok(None)
    }

    fn stand(&mut self, member: u32) -> Answer {
        self.refuse_if_running()?;
        let me = self.member_mut(member).ok_or_else(unknown_member)?;
        if me.seat.take().is_none() {
            return Err(Refusal::new("no_seat", "You are not sitting."));
        }
        self.broadcast_members();
        Ok(None)
    }

    fn start(&mut self, member: u32, order: Order) -> Answer {
        self.require_host(member)?;
        self.refuse_if_running()?;
        self.begin(order)
    }

    /// Who sits where, grouped by side for a new game, or why a game
    /// cannot start. Per-side games need every seat taken; team games at
    /// least one member per team. Everyone seated must be online.
    fn seated_sides(&self) -> Result<Vec<Vec<Player>>, Refusal> {
        let mut sides: Vec<Vec<Player>> = match self.seating {
            Seating::PerSide(n) => vec![Vec::new(); n],
            Seating::Teams => vec![Vec::new(); 2],
        };
        for seat in 0..self.seats {
            let side = match self.seating {
                Seating::PerSide(_) => seat,
                Seating::Teams => seat / TEAM_SEATS,
            };
            match self.members.iter().find(|m| m.seat == Some(seat)) {
                Some(m) if m.online() => sides[side].push(Player {
                    member: m.id,
                    name: m.name.clone().unwrap_or_default(),
                    computer: m.computer,
                }),
                Some(m) => {
                    return Err(Refusal::new(
                        "not_ready",
                        format!("{} is offline.", m.name.as_deref().unwrap_or("A player")),
                    ))
                }
                None if self.seating == Seating::Teams => {}
                None => {
                    return Err(Refusal::new(
                        "not_ready",
                        format!("Seat {} is empty.", seat + 1),
                    ))
                }
            }
        }
        if sides.iter().any(Vec::is_empty) {
            return Err(Refusal::new(
                "not_ready",
                "Each team needs at least one member.",
            ));
        }
        Ok(sides)
    }

    /// Starts the next game (the host's `start`, or the auto-start).
    fn begin(&mut self, order: Order) -> Answer {
        let mut sides = self.seated_sides()?;
        let setup = games::new_game(&self.game_name, &self.options)
            .map_err(|m| Refusal::new("bad_options", m))?;
        // Who moves first is drawn at random unless the host fixes it
        // (RULES.md); with `seats`, seat i plays side i (in teams, the
        // team in seats 1-4 plays side 0).
        if order == Order::Random {
            sides.shuffle(&mut rand::rng());
        }
        let clock = games::clock_for(setup.game.as_ref());
        self.games_played += 1;
        let n = sides.len();
        let mut game = Match {
            number: self.games_played,
            game: setup.game,
            sides,
            turn: vec![0; n],
            gone: vec![false; n],
            moves: Vec::new(),
            move_sides: Vec::new(),
            clock,
            started_at: store::now_millis(),
            order,
        };
        if let Some(side) = game.game.to_move() {
            game.clock.start_turn(side, self.now_ms());
        }
        info!(room = %self.code, number = game.number, "game started");
        self.current = Some(game);
        self.countdown = None;
        self.broadcast_match("start", None);
        self.think_if_computer_to_move();
        Ok(None)
    }

    fn play(&mut self, member: u32, text: &str) -> Answer {
        let game = self.running_match_mut()?;
        let side = game
            .side_of(member)
            .ok_or_else(|| Refusal::new("not_your_turn", "You are not playing in this game."))?;
        if game.game.to_move() == Some(side) {
            if let Some(player) = game.player(side).filter(|p| p.member != member) {
                return Err(Refusal::new(
                    "not_your_turn",
                    format!("It is {}'s turn for your team.", player.name),
                ));
            }
        }
        self.play_side(side, text)
    }

    /// Plays `text` for `side`, a person's move or the computer's: the
    /// same checks, the same clock, the same broadcast.
    fn play_side(&mut self, side: Side, text: &str) -> Answer {
        let now = self.now_ms();
        let game = self.running_match_mut()?;
        if game.game.to_move() != Some(side) {
            return Err(Refusal::new("not_your_turn", "It is not your turn."));
        }
        if game.clock.control() != TimeControl::Unlimited && game.clock.remaining(side, now) == 0 {
            return Err(Refusal::new(
                "late",
                "Your time ran out before the move arrived.",
            ));
        }
        let notation = game
            .game
            .play(text)
            .map_err(|m| Refusal::new("illegal_move", m))?;
        game.clock.finish_turn(now);
        game.moves.push(notation.clone());
        game.move_sides.push(side);
        match game.game.to_move() {
            Some(next) => game.clock.start_turn(next, now),
            None => game.clock.stop(now),
        }
        let over = game.game.outcome().is_some();
        self.rotate(side);
        self.broadcast_match("move", Some((notation, side)));
        if over {
            self.finish();
        }
        self.think_if_computer_to_move();
        Ok(None)
    }

    fn resign(&mut self, member: u32) -> Answer {
        let game = self.running_match_mut()?;
        let side = game
            .side_of(member)
            .ok_or_else(|| Refusal::new("no_game", "You are not playing in this game."))?;
        game.game.forfeit(side, EndReason::Resign);
        game.gone[side.index()] = true;
        self.after_forfeit();
        Ok(None)
    }

    fn set_options(&mut self, member: u32, game: Option<&str>, options: &Value) -> Answer {
        self.require_host(member)?;
        self.refuse_if_running()?;
        let name = game.unwrap_or(&self.game_name).to_string();
        let setup = games::new_game(&name, options).map_err(|m| Refusal::new("bad_options", m))?;
        self.game_name = name;
        self.options = setup.options;
        self.seating = setup.seating;
        self.seats = setup.seating.seats();
        let seats = self.seats;
        let has_bot = bots::bot_for(&self.game_name).is_some();
        for m in &mut self.members {
            if m.seat.is_some_and(|s| s >= seats) {
                m.seat = None;
            }
            // A computer leaves when the new game has no bot.
            if m.computer.is_some() && !has_bot {
                m.seat = None;
            }
        }
        self.members
            .retain(|m| m.computer.is_none() || m.seat.is_some());
        let (store, code, game, options) = (
            self.store.clone(),
            self.code.clone(),
            self.game_name.clone(),
            self.options.clone(),
        );
        tokio::spawn(async move {
            if let Err(e) = store.update_room_options(&code, &game, &options).await {
                warn!(room = %code, error = %e, "could not store room options");
            }
        });
        let team_seats = matches!(self.seating, Seating::Teams).then_some(TEAM_SEATS);
        let event = json!({
            "type": "options",
            "game": self.game_name,
            "options": self.options,
            "seats": self.seats,
            "team_seats": team_seats,
        });
        self.broadcast(event);
        self.broadcast_members();
        Ok(None)
    }

    fn say(&mut self, member: u32, text: &str) -> Answer {
        let me = self.member(member).ok_or_else(unknown_member)?;
        let Some(name) = me.name.clone() else {
            return Err(Refusal::new("bad_name", "Type a name before chatting."));
        };
        let text = validate::chat(text).map_err(|m| Refusal::new("bad_text", m))?;
        let message = json!({"from": name, "member": member_tag(member), "text": text, "at": store::now_millis()});
        if self.chat.len() == CHAT_HISTORY {
            self.chat.pop_front();
        }
        self.chat.push_back(message.clone());
        self.broadcast(json!({"type": "chat", "message": message}));
        Ok(None)
    }

    // ----- computer players --------------------------------------------

    /// `computer`: the host seats the computer at `level` in a free seat
    /// (or changes its level), or with no level takes it out again.
    fn seat_computer(&mut self, member: u32, seat: usize, level: Option<Level>) -> Answer {
        self.require_host(member)?;
        self.refuse_if_running()?;
        if seat >= self.seats {
            return Err(Refusal::new(
                "no_seat",
                format!("This game has seats 1 to {}.", self.seats),
            ));
        }
        let occupant = self.members.iter().position(|m| m.seat == Some(seat));
        match (level, occupant) {
            (None, Some(i)) if self.members[i].computer.is_some() => {
                self.members.remove(i);
            }
            (None, _) => return Err(Refusal::new("no_seat", "The computer does not sit there.")),
            (Some(level), occupant) => {
                if bots::bot_for(&self.game_name).is_none() {
                    return Err(Refusal::new(
                        "no_bot",
                        format!("There is no computer player for {} yet.", self.game_name),
                    ));
                }
                // A game needs a person: the computer never fills the
                // last seat (an unattended game would only burn a core).
                let computers_elsewhere = self
                    .members
                    .iter()
                    .filter(|m| m.computer.is_some() && m.seat.is_some_and(|s| s != seat))
                    .count();
                if computers_elsewhere + 1 >= self.seats {
                    return Err(Refusal::new(
                        "no_seat",
                        "Keep a seat for a person: the computer plays against people.",
                    ));
                }
                match occupant {
                    Some(i) if self.members[i].computer.is_some() => {
                        let m = &mut self.members[i];
                        m.computer = Some(level);
                        m.name = Some(level.display_name());
                    }
                    Some(i) => {
                        let name = self.members[i].name.as_deref().unwrap_or("Someone");
                        return Err(Refusal::new(
                            "no_seat",
                            format!("{name} already sits there."),
                        ));
                    }
                    None => {
                        self.members.push(Member {
                            id: self.next_member,
                            token: String::new(),
                            name: Some(level.display_name()),
                            seat: Some(seat),
                            conns: 0,
                            host: false,
                            offline_since: None,
                            computer: Some(level),
                            account: None,
                        });
                        self.next_member += 1;
                    }
                }
            }
        }
        self.broadcast_members();
        Ok(None)
    }

    /// After anything that may change whose turn it is: if the computer
    /// is to move, start its search on a blocking thread; otherwise make
    /// sure no search runs. A search for an earlier position is dropped
    /// (and so cancelled) either way.
    fn think_if_computer_to_move(&mut self) {
        self.thinking = None;
        let now = self.now_ms();
        let Some(game) = self.current.as_ref().filter(|g| g.is_running()) else {
            return;
        };
        let Some(side) = game.game.to_move() else {
            return;
        };
        let Some(level) = game.player(side).and_then(|p| p.computer) else {
            return;
        };
        let Some(bot) = bots::bot_for(&self.game_name) else {
            return;
        };
        let mut budget = self.settings.bot_budget;
        if game.clock.control() != TimeControl::Unlimited {
            // Treat the computer's clock normally, and never let it think
            // itself out of time: at most a tenth of what is left.
            budget = budget.min(Duration::from_millis(game.clock.remaining(side, now) / 10));
        }
        let position = game.game.boxed_clone();
        self.thinks_started += 1;
        let id = self.thinks_started;
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        let inbox = self.own_inbox.clone();
        let seed: u64 = rand::random();
        debug!(room = %self.code, think = id, level = level.name(), ?budget, "computer thinking");
        let slots = bots::search_slots();
        tokio::spawn(async move {
            // Wait for a free core; a search cancelled meanwhile never starts.
            let Ok(_slot) = slots.acquire_owned().await else {
                return;
            };
            if flag.load(Ordering::Relaxed) {
                return;
            }
            let result = tokio::task::spawn_blocking(move || {
                bot.choose(position.as_ref(), level, budget, &flag, seed)
            })
            .await
            .unwrap_or_else(|e| {
                warn!(error = %e, "computer search failed");
                None
            });
            // The room may have closed meanwhile: then nobody is waiting.
            if let Some(inbox) = inbox.upgrade() {
                let _ = inbox.send(RoomCommand::BotMove { think: id, result }).await;
            }
        });
        self.thinking = Some(Thinking { id, cancel });
    }

    /// A search finished. Only the search the room waits for may move;
    /// anything else answers a position that is gone.
    fn bot_moved(&mut self, think: u64, result: Option<String>) {
        if self.thinking.as_ref().map(|t| t.id) != Some(think) {
            debug!(room = %self.code, think, "late computer move ignored");
            return;
        }
        self.thinking = None;
        let Some(game) = self.current.as_ref().filter(|g| g.is_running()) else {
            return;
        };
        let Some(side) = game.game.to_move() else {
            return;
        };
        let legal = game.game.legal();
        let Some(text) = result.or_else(|| legal.first().cloned()) else {
            return;
        };
        if let Err(refusal) = self.play_side(side, &text) {
            // `late`: the clock ran out first, and the timer ends the game.
            debug!(room = %self.code, code = refusal.code, message = %refusal.message, "computer move refused");
            if refusal.code == "illegal_move" {
                warn!(room = %self.code, %text, "the computer chose an illegal move; playing the first legal one");
                if let Some(first) = legal.first() {
                    let _ = self.play_side(side, first);
                }
            }
        }
    }

    // ----- timers ------------------------------------------------------

    fn next_deadline(&self) -> Option<Instant> {
        let mut deadlines = Vec::new();
        if let Some(game) = self.current.as_ref().filter(|g| g.is_running()) {
            if let Some(ms) = game.clock.deadline() {
                deadlines.push(self.epoch + Duration::from_millis(ms));
            }
            // A side is abandoned once all its members have been offline
            // for the grace time; a side already gone has no deadline.
            for (s, team) in game.sides.iter().enumerate() {
                if game.gone[s] {
                    continue;
                }
                let last_left = team
                    .iter()
                    .map(|p| self.member(p.member).and_then(|m| m.offline_since))
                    .collect::<Option<Vec<Instant>>>()
                    .and_then(|since| since.into_iter().max());
                if let Some(since) = last_left {
                    deadlines.push(since + self.settings.abandon_after);
                }
                // A team member gone while due to play: the turn passes
                // to a teammate who is here, after the same grace time.
                if let Some(since) = self.due_member_gone(game, s) {
                    deadlines.push(since + self.settings.abandon_after);
                }
            }
        } else if let Some(Countdown::Running { at_ms }) = self.countdown {
            deadlines.push(self.epoch + Duration::from_millis(at_ms));
        }
        if let Some(since) = self.empty_since {
            deadlines.push(since + self.settings.idle_after);
        }
        deadlines.into_iter().min()
    }

    /// Runs what is due at `now`. Returns true when the room should close.
    fn on_timer(&mut self, now: Instant) -> bool {
        let now_ms = self.now_ms();
        let abandon_after = self.settings.abandon_after;
        let offline: Vec<u32> = self
            .members
            .iter()
            .filter(|m| m.offline_since.is_some_and(|t| now >= t + abandon_after))
            .map(|m| m.id)
            .collect();
        if let Some(game) = self.current.as_mut().filter(|g| g.is_running()) {
            let flagged = game.clock.deadline().is_some_and(|ms| now_ms >= ms);
            if flagged {
                let side = game.clock.running();
                game.clock.stop(now_ms);
                match game.game.timeout() {
                    Some(notation) => {
                        let side = side.unwrap_or(Side(0));
                        game.moves.push(notation.clone());
                        game.move_sides.push(side);
                        if let Some(next) = game.game.to_move() {
                            game.clock.start_turn(next, now_ms);
                        }
                        self.rotate(side);
                        self.broadcast_match("timeout", Some((notation, side)));
                        if self.current.as_ref().is_some_and(|g| !g.is_running()) {
                            self.finish();
                        }
                    }
                    None => {
                        self.broadcast_match("timeout", None);
                        self.finish();
                    }
                }
                self.think_if_computer_to_move();
            }
        }
        let passed_on: Vec<Side> = self
            .current
            .as_ref()
            .filter(|g| g.is_running())
            .map(|game| {
                (0..game.sides.len())
                    .filter(|&s| {
                        self.due_member_gone(game, s)
                            .is_some_and(|since| now >= since + abandon_after)
                    })
                    .map(|s| Side(s as u8))
                    .collect()
            })
            .unwrap_or_default();
        if !passed_on.is_empty() {
            for side in passed_on {
                self.rotate(side);
            }
            self.broadcast_match("turn", None);
        }
        if let Some(game) = self.current.as_mut().filter(|g| g.is_running()) {
            // A side forfeits when every one of its members is gone: a
            // team goes on while one member is still here.
            let leavers: Vec<usize> = (0..game.sides.len())
                .filter(|&s| {
                    !game.gone[s] && game.sides[s].iter().all(|p| offline.contains(&p.member))
                })
                .collect();
            if !leavers.is_empty() {
                for s in leavers {
                    game.game.forfeit(Side(s as u8), EndReason::Abandon);
                    game.gone[s] = true;
                }
                self.after_forfeit();
            }
        }
        if self.current.as_ref().is_none_or(|g| !g.is_running()) {
            if let Some(Countdown::Running { at_ms }) = self.countdown {
                if now_ms >= at_ms {
                    self.countdown = None;
                    let order = self.current.as_ref().map_or(Order::Random, |g| g.order);
                    if let Err(refusal) = self.begin(order) {
                        debug!(room = %self.code, message = %refusal.message, "no auto-start");
                        self.broadcast_autostart();
                    }
                }
            }
        }
        self.empty_since.is_some_and(|since| {
            now >= since + self.settings.idle_after && self.subscribers.is_empty()
        }) && self.current.as_ref().is_none_or(|g| !g.is_running())
    }

    // ----- game end ----------------------------------------------------

    /// After a resignation or abandonment: the game may go on (Quoridor
    /// with more than two pawns) or be over.
    fn after_forfeit(&mut self) {
        let now = self.now_ms();
        let Some(game) = self.current.as_mut() else {
            return;
        };
        if game.is_running() {
            if let Some(next) = game.game.to_move() {
                if game.clock.running() != Some(next) {
                    game.clock.stop(now);
                    game.clock.start_turn(next, now);
                }
            }
            self.broadcast_match("forfeit", None);
        } else {
            game.clock.stop(now);
            self.broadcast_match("end", None);
            self.finish();
        }
        self.think_if_computer_to_move();
    }

    /// The current game just ended: score it, store it.
    fn finish(&mut self) {
        let Some(game) = self.current.as_ref() else {
            return;
        };
        let Some(outcome) = game.game.outcome() else {
            return;
        };
        info!(room = %self.code, number = game.number, reason = %outcome.reason(), "game over");
        let points = games::points(game.game.as_ref());
        let teams: Vec<Vec<String>> = game
            .sides
            .iter()
            .map(|team| team.iter().map(|p| p.name.clone()).collect())
            .collect();
        let record = GameRecord {
            room_code: self.code.clone(),
            number: game.number,
            game: self.game_name.clone(),
            options: self.options.clone(),
            players: game.side_names(),
            moves: game.moves.clone(),
            outcome: serde_json::to_value(&outcome).unwrap_or(Value::Null),
            started_at: game.started_at,
            ended_at: store::now_millis(),
        };
        self.record_scores(&teams, &outcome, points.as_deref());
        let store = self.store.clone();
        tokio::spawn(async move {
            if let Err(e) = store.insert_game(&record).await {
                warn!(room = %record.room_code, error = %e, "could not store finished game");
            }
        });
        let scores = self.scores_view();
        self.broadcast(json!({"type": "scores", "scores": scores}));
        if self.autostart {
            let at_ms = self.now_ms() + self.settings.autostart_after.as_millis() as u64;
            self.countdown = Some(Countdown::Running { at_ms });
            self.broadcast_autostart();
        }
    }

    /// Adds a finished game to the scoreboard: every player of a side
    /// (each member of a team) gets the side's points and its result.
    fn record_scores(&mut self, sides: &[Vec<String>], outcome: &Outcome, points: Option<&[u32]>) {
        if matches!(outcome, Outcome::Aborted { .. }) {
            return;
        }
        for (side, name) in sides
            .iter()
            .enumerate()
            .flat_map(|(side, team)| team.iter().map(move |name| (side, name)))
        {
            let row = match self.scores.iter_mut().position(|r| &r.name == name) {
                Some(i) => &mut self.scores[i],
                None => {
                    self.scores.push(ScoreRow::new(name));
                    self.scores.last_mut().expect("just pushed")
                }
            };
            row.points += points.and_then(|p| p.get(side)).copied().unwrap_or(0);
            match outcome.winner() {
                Some(w) if w.index() == side => row.wins += 1,
                Some(_) => row.losses += 1,
                None => row.draws += 1,
            }
        }
        self.scores.sort_by(|a, b| {
            b.points
                .cmp(&a.points)
                .then(b.wins.cmp(&a.wins))
                .then(a.name.cmp(&b.name))
        });
    }

    // ----- auto-start --------------------------------------------------

    /// `countdown`: the host pauses or resumes the auto-start countdown.
    fn pause_countdown(&mut self, member: u32, paused: bool) -> Answer {
        self.require_host(member)?;
        self.refuse_if_running()?;
        let now = self.now_ms();
        self.countdown = match (self.countdown, paused) {
            (Some(Countdown::Running { at_ms }), true) => Some(Countdown::Paused {
                left_ms: at_ms.saturating_sub(now),
            }),
            (Some(Countdown::Paused { left_ms }), false) => Some(Countdown::Running {
                at_ms: now + left_ms,
            }),
            (Some(same), _) => Some(same),
            (None, _) => {
                return Err(Refusal::new(
                    "no_countdown",
                    "No countdown to the next game is running.",
                ))
            }
        };
        self.broadcast_autostart();
        Ok(None)
    }

    /// `autostart`: the host turns the room's auto-start on or off. Off
    /// cancels a countdown under way; on starts none until a game ends.
    fn set_autostart(&mut self, member: u32, enabled: bool) -> Answer {
        self.require_host(member)?;
        self.autostart = enabled;
        if !enabled {
            self.countdown = None;
        }
        self.broadcast_autostart();
        Ok(None)
    }

    fn broadcast_autostart(&mut self) {
        let view = self.autostart_view();
        self.broadcast(json!({"type": "autostart", "autostart": view}));
    }

    // ----- helpers -----------------------------------------------------

    /// Since when the member due to play side `s`'s next turn has been
    /// offline, if a teammate is online to take the turn instead.
    fn due_member_gone(&self, game: &Match, s: usize) -> Option<Instant> {
        if game.gone[s] {
            return None;
        }
        let due = game.player(Side(s as u8))?;
        let since = self.member(due.member)?.offline_since?;
        game.sides[s]
            .iter()
            .any(|p| p.member != due.member && self.member(p.member).is_some_and(Member::online))
            .then_some(since)
    }

    /// Passes `side`'s turn to the next member of its team (a no-op for a
    /// side played by one person).
    fn rotate(&mut self, side: Side) {
        let online: Vec<u32> = self
            .members
            .iter()
            .filter(|m| m.online())
            .map(|m| m.id)
            .collect();
        if let Some(game) = self.current.as_mut() {
            game.rotate(side, &online);
        }
    }

    pub(super) fn now_ms(&self) -> u64 {
        Instant::now().duration_since(self.epoch).as_millis() as u64
    }

    pub(super) fn member(&self, id: u32) -> Option<&Member> {
        self.members.iter().find(|m| m.id == id)
    }

    fn member_mut(&mut self, id: u32) -> Option<&mut Member> {
        self.members.iter_mut().find(|m| m.id == id)
    }

    fn require_host(&self, member: u32) -> Result<(), Refusal> {
        match self.member(member) {
            Some(m) if m.host => Ok(()),
            _ => Err(Refusal::new("not_host", "Only the host can do that.")),
        }
    }

    fn refuse_if_running(&self) -> Result<(), Refusal> {
        if self.current.as_ref().is_some_and(Match::is_running) {
            return Err(Refusal::new("game_running", "Wait until the game is over."));
        }
        Ok(())
    }

    fn running_match_mut(&mut self) -> Result<&mut Match, Refusal> {
        self.current
            .as_mut()
            .filter(|g| g.is_running())
            .ok_or_else(|| Refusal::new("no_game", "No game is running."))
    }

    pub(super) fn spectator_count(&self) -> usize {
        self.members
            .iter()
            .filter(|m| m.conns > 0 && m.seat.is_none() && m.computer.is_none())
            .count()
    }

    fn broadcast_members(&mut self) {
        let event = json!({
            "type": "members",
            "members": self.members_view(),
            "spectators": self.spectator_count(),
        });
        self.broadcast(event);
    }

    fn broadcast_match(&mut self, kind: &str, played: Option<(String, Side)>) {
        let Some(view) = self.match_view() else {
            return;
        };
        let mut event = json!({"type": "match", "kind": kind, "match": view});
        if let Some((notation, side)) = played {
            event["move"] = json!(notation);
            event["side"] = json!(side);
        }
        self.broadcast(event);
    }

    fn snapshot(&self, conn: u64) -> String {
        let sub = &self.subscribers[&conn];
        let me = self.member(sub.member);
        let base = self
            .settings
            .public_url
            .clone()
            .unwrap_or_else(|| sub.base_url.clone());
        json!({
            "type": "snapshot",
            "v": self.version,
            "you": {
                "member": member_tag(sub.member),
                "name": me.and_then(|m| m.name.clone()),
                "seat": me.and_then(|m| m.seat),
                "host": me.is_some_and(|m| m.host),
                "account": me.and_then(|m| m.account.clone()),
            },
            "room": self.room_view(&base),
        })
        .to_string()
    }
}

pub(super) fn member_tag(id: u32) -> String {
    format!("m{id}")
}

fn unknown_member() -> Refusal {
    Refusal::new("hello_first", "Say hello first.")
}

/// Browser tokens: 16-64 characters of `[A-Za-z0-9_-]`, so they are safe to
/// store and log-free to compare.
fn valid_token(token: &str) -> bool {
    (16..=64).contains(&token.len())
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

pub fn new_token() -> String {
    format!("{:032x}", rand::random::<u128>())
}

pub fn is_valid_token(token: &str) -> bool {
    valid_token(token)
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}
