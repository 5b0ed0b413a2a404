//! The bracket of a knockout tournament as pure data: who plays whom in
//! each round, byes, replays, coin tosses and the champion (RULES.md §2,
//! "Modes"). No tables, no clocks: the room turns a pairing into a game at
//! a table and reports each game's result here.

use rand::seq::{IndexedRandom, SliceRandom};
use rand::Rng;
use serde::{Deserialize, Serialize};

use super::ids::{MemberId, TableId};

/// Fewest and most players in a tournament.
pub const MIN_PLAYERS: usize = 3;
pub const MAX_PLAYERS: usize = crate::games::KNOCKOUT_SEATS;

/// Someone who entered the tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    pub member: MemberId,
    pub name: String,
}

/// The result of one game of a pairing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GameResult {
    Win { winner: MemberId },
    Draw,
}

/// Where a pairing stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PairingState {
    /// A game is being played (the first, or the replay after a draw).
    Playing,
    /// Decided over the board.
    Won { winner: MemberId },
    /// Drawn twice: the server tossed a coin.
    CoinToss { winner: MemberId },
}

/// One match of a round, played at its own table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    pub table: TableId,
    /// `players[0]` moves first in the first game; a replay swaps them.
    pub players: [MemberId; 2],
    pub games: Vec<GameResult>,
    pub state: PairingState,
}

impl Pairing {
    fn new(table: TableId, a: MemberId, b: MemberId) -> Pairing {
        Pairing {
            table,
            players: [a, b],
            games: Vec::new(),
            state: PairingState::Playing,
        }
    }

    pub fn winner(&self) -> Option<MemberId> {
        match self.state {
            PairingState::Playing => None,
            PairingState::Won { winner } | PairingState::CoinToss { winner } => Some(winner),
        }
    }

    /// Who moves first in the game now being played.
    pub fn first(&self) -> [MemberId; 2] {
        if self.games.len().is_multiple_of(2) {
            self.players
        } else {
            [self.players[1], self.players[0]]
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    pub number: u32,
    pub pairings: Vec<Pairing>,
    /// Who sat this round out and advances without playing.
    pub bye: Option<MemberId>,
}

impl Round {
    pub fn is_over(&self) -> bool {
        self.pairings.iter().all(|p| p.winner().is_some())
    }

    /// Who goes on to the next round, in pairing order then the bye.
    pub fn advancing(&self) -> Vec<MemberId> {
        self.pairings
            .iter()
            .filter_map(Pairing::winner)
            .chain(self.bye)
            .collect()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Status {
    /// The current round's matches are being played.
    Playing,
    /// The round is over; the next starts after the countdown.
    BetweenRounds,
    Finished {
        champion: MemberId,
    },
    /// The host stopped it between rounds; points already won stay.
    Stopped,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bracket {
    pub entrants: Vec<Entrant>,
    pub rounds: Vec<Round>,
    /// Everyone who has had a bye.
    pub byes: Vec<MemberId>,
    pub status: Status,
}

/// What the room must do after a game of a pairing ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// Decided over the board: `winner` advances.
    Decided { winner: MemberId },
    /// A first draw: play again at the same table, the other player first.
    Replay { first: [MemberId; 2] },
    /// A second draw: the server's coin made `winner` advance.
    CoinToss { winner: MemberId },
}

impl Bracket {
    /// A new tournament with its first round drawn at random. `tables`
    /// gives a fresh table id per pairing.
    pub fn new(
        entrants: Vec<Entrant>,
        rng: &mut impl Rng,
        tables: impl FnMut() -> TableId,
    ) -> Result<Bracket, String> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&entrants.len()) {
            return Err(format!(
                "A knockout tournament needs {MIN_PLAYERS} to {MAX_PLAYERS} players; {} are seated.",
                entrants.len()
            ));
        }
        let players: Vec<MemberId> = entrants.iter().map(|e| e.member).collect();
        let mut bracket = Bracket {
            entrants,
            rounds: Vec::new(),
            byes: Vec::new(),
            status: Status::Playing,
        };
        bracket.draw_round(players, rng, tables);
        Ok(bracket)
    }

    pub fn current(&self) -> Option<&Round> {
        self.rounds.last()
    }

    /// Whether the tournament still goes on (playing or between rounds).
    pub fn is_active(&self) -> bool {
        matches!(self.status, Status::Playing | Status::BetweenRounds)
    }

    pub fn name(&self, member: MemberId) -> &str {
        self.entrants
            .iter()
            .find(|e| e.member == member)
            .map_or("?", |e| e.name.as_str())
    }

    /// The pairing played at `table` in the current round.
    pub fn pairing_at(&self, table: TableId) -> Option<&Pairing> {
        self.current()?.pairings.iter().find(|p| p.table == table)
    }

    /// Pairs `players` at random; with an odd number, one sits out: drawn
    /// among those who have not had a bye yet (among everyone if all have).
    fn draw_round(
        &mut self,
        mut players: Vec<MemberId>,
        rng: &mut impl Rng,
        mut tables: impl FnMut() -> TableId,
    ) {
        let bye = (players.len() % 2 == 1).then(|| {
            let fresh: Vec<MemberId> = players
                .iter()
                .copied()
                .filter(|p| !self.byes.contains(p))
                .collect();
            let pool = if fresh.is_empty() { &players } else { &fresh };
            let chosen = *pool.choose(rng).expect("an odd count is not empty");
            players.retain(|p| *p != chosen);
            self.byes.push(chosen);
            chosen
        });
        players.shuffle(rng);
        let pairings = players
            .chunks_exact(2)
            .map(|pair| Pairing::new(tables(), pair[0], pair[1]))
            .collect();
        let number = self.rounds.len() as u32 + 1;
        self.rounds.push(Round {
            number,
            pairings,
            bye,
        });
        self.status = Status::Playing;
    }

    /// A game at `table` ended: `result`, or `None` when nobody won (a
    /// draw, or a game aborted before it began). `coin` is the server's
    /// coin, tossed only on a second draw.
    pub fn record(&mut self, table: TableId, result: Option<MemberId>, coin: bool) -> Option<Next> {
        if self.status != Status::Playing {
            return None;
        }
        let pairing = self
            .rounds
            .last_mut()?
            .pairings
            .iter_mut()
            .find(|p| p.table == table && p.state == PairingState::Playing)?;
        let next = match result {
            Some(winner) if pairing.players.contains(&winner) => {
                pairing.games.push(GameResult::Win { winner });
                pairing.state = PairingState::Won { winner };
                Next::Decided { winner }
            }
            Some(_) => return None,
            None => {
                pairing.games.push(GameResult::Draw);
                if pairing.games.len() < 2 {
                    Next::Replay {
                        first: pairing.first(),
                    }
                } else {
                    let winner = pairing.players[usize::from(coin)];
                    pairing.state = PairingState::CoinToss { winner };
                    Next::CoinToss { winner }
                }
            }
        };
        if self.current().is_some_and(Round::is_over) {
            self.status = Status::BetweenRounds;
        }
        Some(next)
    }

    /// After a round: the champion if one player is left, else the next
    /// round drawn among the players who advance.
    pub fn advance(
        &mut self,
        rng: &mut impl Rng,
        tables: impl FnMut() -> TableId,
    ) -> Option<MemberId> {
        if self.status != Status::BetweenRounds {
            return None;
        }
        let advancing = self.current()?.advancing();
        if let [champion] = advancing[..] {
            self.status = Status::Finished { champion };
            return Some(champion);
        }
        self.draw_round(advancing, rng, tables);
        None
    }

    /// The host stops the tournament (between rounds).
    pub fn stop(&mut self) {
        self.status = Status::Stopped;
    }
}
