//! `ladder`: matches between the Jungle bot levels, to check that each level
//! is clearly stronger than the one below.
//!
//! ```text
//! cargo run --release -p rules --bin ladder -- [--games 100] [--ms 50] [--threads N]
//! cargo run --release -p rules --bin ladder -- --match real --games 10 --ms 2000
//! cargo run --release -p rules --bin ladder -- --match think --ms 2000
//! ```
//!
//! `--match think` runs one search per level from the start position with
//! Master's budget `--ms` and prints the depth reached, nodes and speed.
//!
//! `--match ladder` (the default) plays Master vs Professional,
//! Professional vs Amateur, Amateur vs Beginner and Beginner vs a random
//! mover; `--match real` plays only Master vs Professional. `--ms` is
//! Master's time per move (the other levels take their usual share of it,
//! see `rules::jungle::bot`). Games come in pairs from the same random
//! 4-ply opening with the colours swapped, and run in parallel on
//! `--threads` threads (default: every core). Scores count a win 1 and a
//! draw ½, from the stronger side's point of view.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rules::cli::Flags;
use rules::game::{Game, Outcome};
use rules::jungle::bot::{analyse, search, Level, Limits, Rng};
use rules::jungle::{Color, Jungle, Move};

/// A player in the ladder.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Player {
    Bot(Level),
    Random,
}

impl Player {
    fn name(self) -> &'static str {
        match self {
            Player::Bot(level) => level.name(),
            Player::Random => "random",
        }
    }
}

/// Plies after which a game is called a draw (the rules end every game far
/// sooner: 100 moves without a capture draw).
const MAX_PLIES: usize = 2000;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ladder: {e}");
            eprintln!("usage: ladder [--match ladder|real|think] [--games 100] [--ms 50] [--threads N] [--seed S]");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let flags = Flags::parse(args)?;
    flags.only(&["match", "games", "ms", "threads", "seed"])?;
    let kind = flags.get("match").unwrap_or("ladder");
    let games: usize = flags.get_or("games", if kind == "real" { 10 } else { 100 })?;
    let ms: u64 = flags.get_or("ms", if kind == "real" { 2000 } else { 50 })?;
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let threads: usize = flags.get_or("threads", cores)?;
    let seed: u64 = flags.get_or("seed", 2026)?;
    let budget = Duration::from_millis(ms);
    if kind == "think" {
        return think(budget);
    }
    let pairings: Vec<(Player, Player)> = match kind {
        "ladder" => vec![
            (Player::Bot(Level::Master), Player::Bot(Level::Professional)),
            (
                Player::Bot(Level::Professional),
                Player::Bot(Level::Amateur),
            ),
            (Player::Bot(Level::Amateur), Player::Bot(Level::Beginner)),
            (Player::Bot(Level::Beginner), Player::Random),
        ],
        "real" => vec![(Player::Bot(Level::Master), Player::Bot(Level::Professional))],
        other => return Err(format!("--match is ladder, real or think, not {other:?}")),
    };
    println!("budget: master {ms} ms per move (others take their share); {games} games per match; {threads} threads");
    for level in Level::ALL {
        let s = level.settings();
        println!(
            "  {:<12} depth <= {:<2} time {:>7.1} ms  noise {:>3}  random move {:>4.0}%",
            level.name(),
            s.max_depth,
            ms as f64 * s.time_share,
            s.noise,
            s.blunder * 100.0
        );
    }
    let start = Instant::now();
    for (strong, weak) in pairings {
        let t = Instant::now();
        let results = play_match(strong, weak, games, budget, threads, seed);
        let wins = results.iter().filter(|r| r.score == 1.0).count();
        let draws = results.iter().filter(|r| r.score == 0.5).count();
        let losses = results.len() - wins - draws;
        let score: f64 = results.iter().map(|r| r.score).sum();
        let mut reasons: Vec<(String, usize)> = Vec::new();
        for r in &results {
            match reasons.iter_mut().find(|(name, _)| *name == r.reason) {
                Some((_, n)) => *n += 1,
                None => reasons.push((r.reason.clone(), 1)),
            }
        }
        reasons.sort();
        let plies: usize = results.iter().map(|r| r.plies).sum();
        println!(
            "{} vs {}: {:.1}% ({} wins, {} draws, {} losses in {} games, {:.0} s; {:.0} plies a game; endings: {})",
            strong.name(),
            weak.name(),
            100.0 * score / results.len().max(1) as f64,
            wins,
            draws,
            losses,
            results.len(),
            t.elapsed().as_secs_f64(),
            plies as f64 / results.len().max(1) as f64,
            reasons
                .iter()
                .map(|(name, n)| format!("{name} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    println!("total {:.0} s", start.elapsed().as_secs_f64());
    Ok(())
}

/// One search per level from the start position.
fn think(budget: Duration) -> Result<(), String> {
    let game = Jungle::start();
    let cancel = AtomicBool::new(false);
    for level in Level::ALL {
        let settings = level.settings();
        let limits = Limits {
            max_depth: settings.max_depth,
            time: budget.mul_f64(settings.time_share),
            noise: settings.noise,
            contempt: settings.contempt,
            tt_bits: settings.tt_bits,
            ..Limits::default()
        };
        let r = search(&game, game.legal(), &limits, &cancel);
        let best = r.best.map_or("-".to_string(), |m| m.to_string());
        println!(
            "{:<12} depth {:>2}  best {best}  score {:>5}  {:>9} nodes in {:>7.1} ms  ({:.2} M nodes/s)",
            level.name(),
            r.depth,
            r.score,
            r.nodes,
            r.elapsed.as_secs_f64() * 1e3,
            r.nodes as f64 / r.elapsed.as_secs_f64().max(1e-9) / 1e6
        );
    }
    Ok(())
}

/// How one game went, from the stronger side's point of view.
struct GameResult {
    score: f64,
    /// The `EndReason`, prefixed `lost by` when the stronger side lost.
    reason: String,
    plies: usize,
}

/// Plays `games` games (colours alternating, pairs sharing an opening) and
/// returns how each went for `strong`.
fn play_match(
    strong: Player,
    weak: Player,
    games: usize,
    budget: Duration,
    threads: usize,
    seed: u64,
) -> Vec<GameResult> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(games));
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= games {
                    break;
                }
                let strong_is_blue = i.is_multiple_of(2);
                let opening = opening(seed.wrapping_add((i / 2) as u64));
                let score = play_game(
                    strong,
                    weak,
                    strong_is_blue,
                    opening,
                    budget,
                    seed ^ (i as u64) << 20,
                );
                results.lock().expect("results").push(score);
            });
        }
    });
    results.into_inner().expect("results")
}

/// A random 4-ply opening.
fn opening(seed: u64) -> Jungle {
    let mut rng = Rng::new(seed);
    let mut game = Jungle::start();
    for _ in 0..4 {
        let moves = game.legal_moves();
        let mv = moves[rng.below(moves.len())];
        game.play(&mv).expect("legal");
    }
    game
}

fn play_game(
    strong: Player,
    weak: Player,
    strong_is_blue: bool,
    mut game: Jungle,
    budget: Duration,
    seed: u64,
) -> GameResult {
    let cancel = AtomicBool::new(false);
    let mut rng = Rng::new(seed);
    let strong_color = if strong_is_blue {
        Color::Blue
    } else {
        Color::Red
    };
    while !game.is_over() && game.ply() < MAX_PLIES {
        let player = if game.turn() == strong_color {
            strong
        } else {
            weak
        };
        let mv: Move = match player {
            Player::Random => {
                let moves = game.legal();
                moves[rng.below(moves.len())]
            }
            Player::Bot(level) => {
                analyse(&game, level, budget, &cancel, rng.next_u64())
                    .expect("a move while the game is on")
                    .0
            }
        };
        game.play(&mv).expect("the bot plays legal moves");
    }
    let (score, reason) = match game.outcome() {
        Some(Outcome::Win { winner, reason }) if *winner == strong_color.side() => {
            (1.0, reason.to_string())
        }
        Some(Outcome::Win { reason, .. }) => (0.0, format!("lost by {reason}")),
        Some(other) => (0.5, other.reason().to_string()),
        None => (0.5, "ply limit".to_string()),
    };
    GameResult {
        score,
        reason,
        plies: game.ply(),
    }
}
