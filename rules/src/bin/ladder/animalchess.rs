//! `--match animalchess --peer PATH` (or env `ANIMAL_CHESS=PATH`): Jungle's
//! Master against netcan/AnimalChess's alpha-beta, through a small text
//! driver built in that checkout (`PATH/driver/target/release/
//! animal_chess_driver`, recipe in BENCHMARKS.md; none of its code is in
//! this repository).
//!
//! The driver reads `position M1 M2 …` (the game from the start, each move
//! as AnimalChess's own `u16` id, see [`to_peer`]) and answers
//! `ready WIN LEGAL` (`WIN` is `red`, `black` or `none` by its rules,
//! `LEGAL` its number of legal moves) or `error illegal M` when a move is
//! not legal by its rules; `go MS` runs its search and answers
//! `bestmove M` after a line `max_depth = D …`. Its search starts no new
//! depth once `MS` have passed and then finishes that depth, so `MS` is
//! steered for its mean time per move to be `--ms`; Master gets `--ms`.
//!
//! Before every move both rules are asked about the position: where they
//! disagree (its repetition loss, our repetition or 100-move draw, a
//! shuttle ban) the game stops there, unscored and reported, as does a
//! move one side's rules refuse.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::outside::{spawn, Stop};
use super::{report, scored, GameResult, Player, Run};
use rules::game::{EndReason, Game, Outcome, Side};
use rules::jungle::{Jungle, Move, Square};
use rules::rng::Rng;
use rules::{Engine, Level, Think};

/// AnimalChess's square: `row << 4 | col`, row 0 being our rank 9 and col
/// 0 our file `a` (its FEN is ours, rank 9 first; its `RED`, upper case,
/// moves first and is our Blue).
fn square_to_peer(sq: Square) -> u16 {
    (u16::from(8 - sq.rank()) << 4) | u16::from(sq.file())
}

fn square_from_peer(pos: u16) -> Option<Square> {
    let (row, col) = (pos >> 4, pos & 0xf);
    if pos > 0xff || row > 8 {
        return None;
    }
    Square::new(col as u8, 8 - row as u8)
}

/// Our move as AnimalChess's move id: `from << 8 | to`.
pub fn to_peer(mv: &Move) -> u16 {
    (square_to_peer(mv.from) << 8) | square_to_peer(mv.to)
}

/// AnimalChess's move id read as our move in `game`: the legal move with
/// those squares (its id carries neither the animal nor the capture mark),
/// or why our rules refuse it.
pub fn from_peer(id: u16, game: &Jungle) -> Result<Move, String> {
    let (from, to) = match (square_from_peer(id >> 8), square_from_peer(id & 0xff)) {
        (Some(from), Some(to)) => (from, to),
        _ => return Err(format!("move id {id} names a square off the board")),
    };
    let banned = game
        .shuttle_ban()
        .filter(|m| m.from == from && m.to == to)
        .map_or("", |_| ": our shuttle limit bans it this turn");
    game.legal()
        .iter()
        .find(|m| m.from == from && m.to == to)
        .copied()
        .ok_or_else(|| format!("{from}-{to} (id {id}), not legal by our rules{banned}"))
}

/// What AnimalChess's rules say of a position.
#[derive(Debug, PartialEq)]
struct Verdict {
    /// The side its `check_win` names (den, no animals, or its repetition
    /// rule), if any.
    winner: Option<Side>,
    legal: usize,
}

struct Peer {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Peer {
    fn start(program: &str) -> Result<Peer, String> {
        let (child, input, output) = spawn(Command::new(program), Stdio::inherit(), program)?;
        Ok(Peer {
            child,
            input,
            output,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}").map_err(|e| e.to_string())?;
        self.input.flush().map_err(|e| e.to_string())
    }

    fn line(&mut self) -> Result<String, String> {
        let mut line = String::new();
        match self.output.read_line(&mut line) {
            Ok(0) => Err("AnimalChess's driver ended".to_string()),
            Ok(_) => Ok(line.trim().to_string()),
            Err(e) => Err(e.to_string()),
        }
    }

    /// Its verdict on the game `ids`; `Err(Some(id))` when it refuses the
    /// move `id`.
    fn position(&mut self, ids: &[u16]) -> Result<Result<Verdict, u16>, String> {
        let list: Vec<String> = ids.iter().map(u16::to_string).collect();
        self.send(&format!("position {}", list.join(" ")))?;
        let line = self.line()?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["ready", win, legal] => Ok(Ok(Verdict {
                winner: match *win {
                    "red" => Some(Side(0)),
                    "black" => Some(Side(1)),
                    _ => None,
                },
                legal: legal.parse().map_err(|_| format!("bad answer {line:?}"))?,
            })),
            ["error", "illegal", id] => Ok(Err(id.parse().unwrap_or(0))),
            _ => Err(format!("AnimalChess's driver answered {line:?}")),
        }
    }

    /// Its move after `ms` milliseconds of search, and the depth it
    /// completed.
    fn go(&mut self, ms: u64) -> Result<(u16, u32), String> {
        self.send(&format!("go {ms}"))?;
        let mut depth = 0;
        loop {
            let line = self.line()?;
            if let Some(rest) = line.strip_prefix("max_depth = ") {
                depth = rest
                    .split_whitespace()
                    .next()
                    .and_then(|d| d.parse().ok())
                    .unwrap_or(0);
            } else if let Some(id) = line.strip_prefix("bestmove ") {
                let id = id
                    .trim()
                    .parse()
                    .map_err(|_| format!("bad answer {line:?}"))?;
                return Ok((id, depth));
            }
        }
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Time and depth per move of both sides, and the peer's steering.
struct Clock {
    peer: Duration,
    peer_moves: u32,
    peer_depth: u64,
    master: Duration,
    master_moves: u32,
    master_depth: u64,
    /// The share of `--ms` passed to the peer's `go`.
    share: f64,
}

/// Where the two rules part in a position, or `None` if they agree
/// (the game going on under both, or ended the same way).
fn disagreement(game: &Jungle, verdict: &Verdict) -> Option<String> {
    match (game.outcome(), verdict.winner) {
        (None, None) if verdict.legal > 0 => None,
        (None, None) => Some("AnimalChess's side to move has no move there; ours has".into()),
        (None, Some(w)) => Some(format!(
            "AnimalChess's rules give side {} the win there (its repetition rule: a board seen a third time loses for the side to move); ours play on",
            w.0
        )),
        (Some(Outcome::Win { winner, .. }), Some(w)) if *winner == w => None,
        (Some(Outcome::Win { reason: EndReason::NoMoves, .. }), None) if verdict.legal == 0 => None,
        (Some(ours), theirs) => Some(format!(
            "our rules end the game there ({ours:?}); AnimalChess's {}",
            match theirs {
                Some(w) => format!("give side {} the win", w.0),
                None => format!("play on ({} legal moves)", verdict.legal),
            }
        )),
    }
}

pub fn play(run: &Run, program: &str) -> Result<(), String> {
    println!("== jungle: master vs AnimalChess ({program})");
    println!(
        "{} games, {} ms a move each (AnimalChess's mean steered to it); {} threads",
        run.games,
        run.budget.as_millis(),
        run.threads
    );
    let clock = Mutex::new(Clock {
        peer: Duration::ZERO,
        peer_moves: 0,
        peer_depth: 0,
        master: Duration::ZERO,
        master_moves: 0,
        master_depth: 0,
        share: 0.5,
    });
    let start = Instant::now();
    let (results, stopped) = super::outside::games(
        run,
        || Peer::start(program),
        |peer, i| game(peer, Side((i % 2) as u8), run, &clock, i),
        |i, r| {
            let side = ["blue", "red"][i % 2];
            format!("master {side}, {} ({} plies)", r.reason, r.plies)
        },
    )?;
    let c = clock.into_inner().expect("clock");
    let mean = |t: Duration, n: u32| t.as_secs_f64() * 1e3 / f64::from(n.max(1));
    println!(
        "mean time per move: AnimalChess {:.0} ms ({} moves, mean depth {:.1}, last share {:.2}), master {:.0} ms ({} moves, mean depth {:.1})",
        mean(c.peer, c.peer_moves),
        c.peer_moves,
        c.peer_depth as f64 / f64::from(c.peer_moves.max(1)),
        c.share,
        mean(c.master, c.master_moves),
        c.master_moves,
        c.master_depth as f64 / f64::from(c.master_moves.max(1)),
    );
    report(
        Player::Bot(Level::Master),
        Player::Random,
        &results,
        start.elapsed(),
    );
    println!("(\"random\" above is AnimalChess)");
    println!(
        "{} games stopped where the rules differ (not scored)",
        stopped
    );
    Ok(())
}

/// Two random plies from the start.
fn opening(rng: &mut Rng) -> (Jungle, Vec<u16>, Vec<String>) {
    let mut game = Jungle::start();
    let (mut ids, mut names) = (Vec::new(), Vec::new());
    for _ in 0..2 {
        let mv = game.legal()[rng.below(game.legal().len())];
        game.play_move(mv).expect("legal");
        ids.push(to_peer(&mv));
        names.push(mv.to_string());
    }
    (game, ids, names)
}

fn game(
    peer: &mut Peer,
    master_side: Side,
    run: &Run,
    clock: &Mutex<Clock>,
    i: usize,
) -> Result<GameResult, Stop> {
    let (mut game, mut ids, mut names) =
        opening(&mut Rng::new(run.seed.wrapping_add((i / 2) as u64)));
    let cancel = AtomicBool::new(false);
    let mut rng = Rng::new(run.seed ^ (i as u64) << 20);
    let ms = run.budget.as_millis() as u64;
    loop {
        let after = || format!("after {} ({} plies)", names.join(", "), names.len());
        let verdict = peer
            .position(&ids)
            .map_err(Stop::Broken)?
            // Every earlier move passed the check before it: the refused
            // one is the last (or one of the opening's two).
            .map_err(|id| {
                let last = names.last().map_or("", String::as_str);
                Stop::Unscored(format!("AnimalChess refuses {last} (id {id}) {}", after()))
            })?;
        if let Some(why) = disagreement(&game, &verdict) {
            return Err(Stop::Unscored(format!("{why}, {}", after())));
        }
        let Some(side) = game.to_move() else { break };
        let mv = if side == master_side {
            let think = Think {
                level: Level::Master,
                budget: run.budget,
                cancel: &cancel,
                seed: rng.next_u64(),
            };
            let t = Instant::now();
            let (mv, found) = game
                .analyse(&think)
                .ok_or(Stop::Broken("no move for master".to_string()))?;
            let mut c = clock.lock().expect("clock");
            c.master += t.elapsed();
            c.master_moves += 1;
            c.master_depth += found.map_or(0, |f| u64::from(f.depth));
            mv
        } else {
            let share = clock.lock().expect("clock").share;
            let t = Instant::now();
            let (id, depth) = peer
                .go(((ms as f64 * share) as u64).max(1))
                .map_err(Stop::Broken)?;
            let took = t.elapsed();
            let mut c = clock.lock().expect("clock");
            c.peer += took;
            c.peer_moves += 1;
            c.peer_depth += u64::from(depth);
            // Steer its mean time per move to `--ms`.
            let ratio = ms as f64 / (c.peer.as_secs_f64() * 1e3 / f64::from(c.peer_moves));
            c.share = (c.share * ratio.powf(0.2)).clamp(0.02, 1.0);
            drop(c);
            from_peer(id, &game)
                .map_err(|e| Stop::Unscored(format!("AnimalChess answered {e} {}", after())))?
        };
        game.play_move(mv)
            .map_err(|e| Stop::Broken(format!("{mv}: {e}")))?;
        ids.push(to_peer(&mv));
        names.push(mv.to_string());
    }
    Ok(scored(&game, master_side))
}

#[cfg(test)]
#[path = "animalchess_tests.rs"]
mod tests;
