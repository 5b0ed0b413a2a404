//! A table: one board with its own match and clock. Ordinary play uses one
//! table per room; a knockout tournament runs several at once.

use rules::clock::Clock;
use rules::{Game, Side};

use crate::game_log::GameLog;
use crate::games::GameOptions;
use crate::model::ids::{GameId, MemberId, TableId};
use crate::model::records::Player;
use crate::protocol::Order;

/// One game at a table.
#[derive(Clone, Debug)]
pub struct Match {
    pub id: GameId,
    pub number: u32,
    /// The game and its record; changed only by [`GameLog::apply`]. The
    /// match reads as its log (`m.game`, `m.moves`, ...).
    pub log: GameLog,
    pub options: GameOptions,
    /// Who plays each side: one player, or a Quoridor team whose members
    /// take the side's turns in rotation, in this order.
    pub sides: Vec<Vec<Player>>,
    /// Per side, the index in `sides[s]` of the member whose turn is next.
    pub turn: Vec<usize>,
    /// Entries stored so far in the game's log (moves, timeouts,
    /// forfeits, turn passes): the next entry's sequence number.
    pub entries: u32,
    pub clock: Clock,
    /// Wall-clock milliseconds.
    pub started_at: u64,
    pub order: Order,
    /// A draw offer (live only: not stored).
    pub draw: Request,
    /// A takeback request (live only: not stored).
    pub takeback: Request,
    /// A turn-based game's deadline (Unix ms): the player to move loses
    /// on time at this moment (`room/timers.rs`, `Timer::Turn`).
    pub deadline: Option<u64>,
}

/// A request one player makes to the other (a draw offer, a takeback):
/// the side whose request stands, and per side the move count when it
/// last asked, so that a side asks at most once between two moves.
#[derive(Clone, Debug)]
pub struct Request {
    pub standing: Option<Side>,
    asked_at: Vec<Option<usize>>,
}

impl Request {
    /// No request yet, in a game of `sides` sides.
    pub fn new(sides: usize) -> Request {
        Request {
            standing: None,
            asked_at: vec![None; sides],
        }
    }

    /// Whether `side` may not ask now, `ply` moves into the game: its
    /// request stands, or it asked already at this move.
    pub fn asked(&self, side: Side, ply: usize) -> bool {
        self.standing == Some(side)
            || self.asked_at.get(side.index()).copied().flatten() == Some(ply)
    }

    /// The sides that may not ask now, `ply` moves into the game (see
    /// [`Request::asked`]), in side order: what a page reloaded after a
    /// decline needs to keep its button off until the next move.
    pub fn asked_sides(&self, ply: usize) -> Vec<Side> {
        (0..self.asked_at.len())
            .map(|i| Side(i as u8))
            .filter(|&s| self.asked(s, ply))
            .collect()
    }

    /// `side` asks, `ply` moves into the game.
    pub fn ask(&mut self, side: Side, ply: usize) {
        self.standing = Some(side);
        if let Some(at) = self.asked_at.get_mut(side.index()) {
            *at = Some(ply);
        }
    }
}

/// Read-only: a match is its game's log plus who sits at it, and only
/// [`GameLog::apply`] changes the log.
impl std::ops::Deref for Match {
    type Target = GameLog;

    fn deref(&self) -> &GameLog {
        &self.log
    }
}

impl Match {
    pub fn is_running(&self) -> bool {
        !self.game.is_over()
    }

    pub fn side_of(&self, member: MemberId) -> Option<Side> {
        self.sides
            .iter()
            .position(|team| team.iter().any(|p| p.member == member))
            .map(|i| Side(i as u8))
    }

    /// The player who plays `side`'s next turn.
    pub fn player(&self, side: Side) -> Option<&Player> {
        let team = self.sides.get(side.index())?;
        team.get(*self.turn.get(side.index())?)
    }

    /// The player who must move now.
    pub fn due(&self) -> Option<&Player> {
        self.player(self.game.to_move()?)
    }

    /// After `side` took a turn: the next member of its team in rotation,
    /// skipping members not in `online` while someone else is (the
    /// caller says who may take a turn: see `RoomState::turn_takers`).
    pub fn rotate(&mut self, side: Side, online: &[MemberId]) {
        let s = side.index();
        let (Some(team), Some(&current)) = (self.sides.get(s), self.turn.get(s)) else {
            return;
        };
        let n = team.len();
        if n == 0 {
            return;
        }
        let next = (1..=n)
            .map(|k| (current + k) % n)
            .find(|&i| online.contains(&team[i].member))
            .unwrap_or((current + 1) % n);
        self.turn[s] = next;
    }

    /// After `side` took a turn: the next member of its team in rotation,
    /// whoever is online (a turn-based game).
    pub fn rotate_strictly(&mut self, side: Side) {
        let s = side.index();
        let n = self.sides.get(s).map_or(0, Vec::len);
        if let Some(turn) = self.turn.get_mut(s).filter(|_| n > 0) {
            *turn = (*turn + 1) % n;
        }
    }

    /// Names for the stored record: one per side, a team's joined by " + ".
    pub fn side_names(&self) -> Vec<String> {
        crate::model::records::side_names(&self.sides)
    }
}

#[derive(Clone, Debug)]
pub struct Table {
    pub id: TableId,
    /// The current or last game (`None` before the first).
    pub current: Option<Match>,
    /// The computer search whose move the table waits for.
    pub thinking: Option<u64>,
}

impl Table {
    pub fn new(id: TableId) -> Table {
        Table {
            id,
            current: None,
            thinking: None,
        }
    }

    pub fn is_running(&self) -> bool {
        self.current.as_ref().is_some_and(Match::is_running)
    }

    pub fn running(&self) -> Option<&Match> {
        self.current.as_ref().filter(|m| m.is_running())
    }

    /// Whether `member` plays in this table's current game.
    pub fn plays(&self, member: MemberId) -> bool {
        self.current
            .as_ref()
            .is_some_and(|m| m.side_of(member).is_some())
    }
}
