//! `ladder`: matches between the bot levels of each game, to check that each
//! level is clearly stronger than the one below.
//!
//! ```text
//! cargo run --release -p rules --bin ladder -- [--game jungle|quoridor|crossyray|all] [--games 100] [--ms 50] [--threads N]
//! cargo run --release -p rules --bin ladder -- --game jungle --match real --games 10 --ms 2000
//! cargo run --release -p rules --bin ladder -- --game quoridor --match think --ms 2000
//! ```
//!
//! `--game` picks the game (default `jungle`; `all` runs the three in
//! turn). Quoridor is the classic 2-pawn race on 9×9 unless `--size`
//! (9, 11, 13) or `--players` (2 to 8: the stronger player holds one pawn,
//! the weaker all the others, and the stronger pawn's seat goes round)
//! says otherwise.
//!
//! `--match engine --engine "COMMAND"` plays Quoridor's Master against an
//! outside program, `--games` games with the sides swapped in pairs from
//! the same 2-ply random opening, one game at a time per `--threads`
//! thread (one program each). The program reads lines `moves M1 M2 …`
//! (the game so far in this crate's notation) and answers each with one
//! line, its move (anything after a space is ignored). Equal time per
//! move: Master thinks as long as the program took on average so far in
//! the match (`--ms` until it has moved).
//!
//! `--match titanium --peer PATH` (or env `TITANIUM_QUORIDOR=PATH`) plays
//! 2-player 9×9 Quoridor's Master against titanium-quoridor's strongest
//! engine, `PATH/target/release/titanium session --engine titanium-v15`,
//! PATH being a checkout of titaniummachine1/titanium-quoridor built with
//! `RUSTFLAGS='-C target-cpu=native' cargo build --release --bin titanium`
//! (BENCHMARKS.md gives the commit). It speaks that program's session
//! protocol (`position M1 M2 …` answered `ready N`, then `go SECONDS`
//! answered `bestmove M`); the move names are ours on 9×9, and it has no
//! pass. Both sides get `--ms` a move (default 1000), `--games` games
//! (default 10) as `--match engine` plays them. An answer our rules refuse,
//! or a pass by Master, stops that game unscored and is reported.
//! With `--match engine` too, such a game is stopped and reported, not scored.
//! With `LADDER_MOVES` set in the environment, `--match engine` and
//! `--match titanium` print each game's moves (the random opening
//! included), to be replayed or analysed elsewhere.
//!
//! `--match animalchess --peer PATH` (or env `ANIMAL_CHESS=PATH`) plays
//! Jungle's Master against netcan/AnimalChess's alpha-beta through a text
//! driver built in that checkout, `--ms` a move each (default 1000),
//! colours alternating from 2-ply random openings (`ladder/animalchess.rs`
//! says how, BENCHMARKS.md how to build it); a game stops unscored where
//! the two rules part.
//!
//! `--match greedy` plays Master, then Professional, holding one pawn
//! against greedy players holding all the others (`greedy.rs`: a win, else
//! a step along the shortest way, else a wall on the next pawn); with
//! `--game quoridor --players 4` it is issue 28's test of the
//! free-for-all. `--match mixed` plays Master holding one pawn against a
//! greedy player on the seat after it and our Professionals on the others
//! (Quoridor with 3+ pawns: a table the Master foresees side by side).
//!
//! `--match think` runs one search per level from the start position with
//! Master's budget `--ms` and prints the depth reached, nodes and speed.
//!
//! `--match ladder` (the default) plays Master vs Professional,
//! Professional vs Amateur, Amateur vs Beginner and Beginner vs a random
//! mover; `--match real` plays only Master vs Professional. `--ms` is
//! Master's time per move (the other levels take their usual share of it,
//! see each game's `bot` module). Games come in pairs from the same random
//! opening with the sides swapped (in rounds of one game per seat with
//! more Quoridor pawns), and run in parallel on `--threads`
//! threads (default: every core). Scores count a win 1 and a draw ½, from
//! the stronger side's point of view.

#[path = "ladder/animalchess.rs"]
mod animalchess;
#[path = "ladder/greedy.rs"]
mod greedy;
#[path = "ladder/outside.rs"]
mod outside;

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rules::cli::Flags;
use rules::crossyray::{self, CrossyRay};
use rules::deepening::SearchResult;
use rules::game::{Game, Outcome, Side};
use rules::jungle::{self, Jungle};
use rules::quoridor::{self, Quoridor};
use rules::rng::Rng;
use rules::{Engine, Level, Think};

/// A player in the ladder.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Player {
    Bot(Level),
    Random,
    /// Quoridor's greedy player (`greedy.rs`); a random mover elsewhere.
    Greedy,
    /// A greedy player on the seat after the stronger player's, our
    /// Professional on every other (`--match mixed`).
    Mixed,
}

impl Player {
    fn name(self) -> &'static str {
        match self {
            Player::Bot(level) => level.name(),
            Player::Random => "random",
            Player::Greedy => "greedy",
            Player::Mixed => "professionals and a greedy player",
        }
    }
}

/// Plies after which a game is called a draw (the rules of every game end
/// it far sooner).
const MAX_PLIES: usize = 2000;

/// What the ladder needs of a game besides its rules and its computer
/// player.
trait Contest: Engine + Sync {
    /// The position the pairs of games start from: a few random plies
    /// into the game.
    fn opening(setup: &Setup, rng: &mut Rng) -> Self;
    /// The level's settings, in one line.
    fn describe(level: Level, budget: Duration) -> String;
    /// One search from the start, in one line.
    fn think(setup: &Setup, level: Level, budget: Duration) -> String;
    /// The greedy player's move (a random one where the game has none).
    fn greedy(&self, rng: &mut Rng) -> Self::Move {
        let moves = self.legal_moves();
        moves[rng.below(moves.len())].clone()
    }
}

/// The game options the command line chose.
struct Setup {
    quoridor_size: u8,
    /// Quoridor pawns: the stronger player holds one, the weaker all the
    /// others.
    quoridor_players: u8,
}

impl Setup {
    /// A fresh 2-pawn Quoridor game on the chosen board.
    fn quoridor(&self) -> Quoridor {
        let options = quoridor::Options {
            size: self.quoridor_size,
            players: self.quoridor_players,
            ..quoridor::Options::default()
        };
        Quoridor::new(&options).expect("a size the command line checked")
    }
}

/// `plies` random legal moves from `game`.
fn random_plies<G: Game>(mut game: G, plies: usize, rng: &mut Rng) -> G {
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play(&moves[rng.below(moves.len())]).expect("legal");
    }
    game
}

fn searched(depth: u32, nodes: u64, elapsed: Duration, best: String, score: i32) -> String {
    format!(
        "depth {depth:>2}  best {best:<10} score {score:>6}  {nodes:>9} nodes in {:>7.1} ms  ({:.2} M nodes/s)",
        elapsed.as_secs_f64() * 1e3,
        nodes as f64 / elapsed.as_secs_f64().max(1e-9) / 1e6
    )
}

/// A level's settings in one line: its depth, its time per move in `ms`,
/// the walls it tries (Quoridor's), its noise and its random moves.
fn settings_line(
    max_depth: u32,
    ms: f64,
    walls: Option<usize>,
    noise: i32,
    blunder: f64,
) -> String {
    let walls = walls.map_or(String::new(), |w| format!("  walls tried {w:>2}"));
    let random = blunder * 100.0;
    format!("depth <= {max_depth:<2} time {ms:>7.1} ms{walls}  noise {noise:>3}  random move {random:>4.0}%")
}

/// One line for what `analyse` answered.
fn analysed<M: std::fmt::Display>(answer: Option<(M, Option<SearchResult<M>>)>) -> String {
    match answer {
        Some((_, Some(r))) => searched(r.depth, r.nodes, r.elapsed, r.best.to_string(), r.score),
        Some((mv, None)) => format!("played {mv} without a search"),
        None => "no move".to_string(),
    }
}

impl Contest for Jungle {
    fn opening(_: &Setup, rng: &mut Rng) -> Jungle {
        random_plies(Jungle::start(), 4, rng)
    }

    fn describe(level: Level, budget: Duration) -> String {
        let s = level.settings();
        let ms = budget.as_secs_f64() * 1e3 * s.time_share;
        settings_line(s.max_depth, ms, None, s.noise, s.blunder)
    }

    fn think(_: &Setup, level: Level, budget: Duration) -> String {
        let game = Jungle::start();
        let s = level.settings();
        let limits = jungle::bot::Limits {
            max_depth: s.max_depth,
            time: budget.mul_f64(s.time_share),
            noise: s.noise,
            contempt: s.contempt,
            tt_bits: s.tt_bits,
            ..jungle::bot::Limits::default()
        };
        let r = jungle::bot::search(&game, game.legal(), &limits, &AtomicBool::new(false));
        let best = r.best.map_or("-".to_string(), |m| m.to_string());
        searched(r.depth, r.nodes, r.elapsed, best, r.score)
    }
}

impl Contest for Quoridor {
    fn opening(setup: &Setup, rng: &mut Rng) -> Quoridor {
        random_plies(setup.quoridor(), 2, rng)
    }

    fn describe(level: Level, budget: Duration) -> String {
        let s = quoridor::bot::settings(level);
        let ms = budget.as_secs_f64() * 1e3 * s.time_share;
        settings_line(s.max_depth, ms, Some(s.walls), s.noise, s.blunder)
    }

    fn think(setup: &Setup, level: Level, budget: Duration) -> String {
        analysed(
            setup
                .quoridor()
                .analyse(&Think::uncancelled(level, budget, 1)),
        )
    }

    fn greedy(&self, rng: &mut Rng) -> quoridor::Move {
        greedy::greedy_move(self, rng)
    }
}

impl Contest for CrossyRay {
    fn opening(_: &Setup, rng: &mut Rng) -> CrossyRay {
        let game = CrossyRay::new(&crossyray::Options::default()).expect("the default board");
        random_plies(game, 2, rng)
    }

    fn describe(level: Level, budget: Duration) -> String {
        let s = crossyray::bot::settings(level);
        let ms = budget.as_secs_f64() * 1e3 * s.time_share;
        settings_line(s.max_depth, ms, None, s.noise, s.blunder)
    }

    fn think(_: &Setup, level: Level, budget: Duration) -> String {
        let game = CrossyRay::new(&crossyray::Options::default()).expect("the default board");
        analysed(game.analyse(&Think::uncancelled(level, budget, 1)))
    }
}

const USAGE: &str = "usage: ladder [--game jungle|quoridor|crossyray|all] [--match ladder|real|think|engine|titanium|animalchess|greedy|mixed] [--peer PATH] [--games 100] [--ms 50] [--threads N] [--seed S] [--size 9|11|13] [--players 2..8]";

/// `--peer PATH`, else the environment variable `var`, for `--match kind`.
fn peer_path(flags: &Flags, var: &str, kind: &str, what: &str) -> Result<String, String> {
    flags
        .get("peer")
        .map(str::to_string)
        .or_else(|| std::env::var(var).ok())
        .ok_or_else(|| format!("--match {kind} needs --peer PATH (or {var}): {what}"))
}

fn main() -> ExitCode {
    rules::cli::main("ladder", USAGE, run)
}

/// The matches of one run.
struct Run {
    kind: String,
    games: usize,
    budget: Duration,
    threads: usize,
    seed: u64,
    setup: Setup,
}

fn run(args: &[String]) -> Result<(), String> {
    let flags = Flags::parse(args)?;
    flags.only(&[
        "game", "match", "games", "ms", "threads", "seed", "size", "players", "engine", "peer",
    ])?;
    let kind = flags.get("match").unwrap_or("ladder").to_string();
    let kinds = [
        "ladder",
        "real",
        "think",
        "engine",
        "greedy",
        "mixed",
        "titanium",
        "animalchess",
    ];
    if !kinds.contains(&kind.as_str()) {
        return Err(format!(
            "--match is ladder, real, think, engine, titanium, animalchess, greedy or mixed, not {kind:?}"
        ));
    }
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let real = ["real", "titanium", "animalchess"].contains(&kind.as_str());
    let default_ms = match kind.as_str() {
        "titanium" | "animalchess" => 1000,
        "real" => 2000,
        _ => 50,
    };
    let quoridor_size: u8 = flags.get_or("size", 9)?;
    if !quoridor::SIZES.contains(&quoridor_size) {
        return Err(format!("--size is 9, 11 or 13, not {quoridor_size}"));
    }
    let quoridor_players: u8 = flags.get_or("players", 2)?;
    if !(2..=quoridor::MAX_PAWNS as u8).contains(&quoridor_players) {
        return Err(format!("--players is 2 to 8, not {quoridor_players}"));
    }
    let run = Run {
        games: flags.get_or("games", if real { 10 } else { 100 })?,
        budget: Duration::from_millis(flags.get_or("ms", default_ms)?),
        threads: flags.get_or("threads", cores)?,
        seed: flags.get_or("seed", 2026)?,
        kind,
        setup: Setup {
            quoridor_size,
            quoridor_players,
        },
    };
    if run.kind == "engine" {
        let command = flags
            .get("engine")
            .ok_or("--match engine needs --engine \"COMMAND\"")?;
        if flags.get("game") != Some("quoridor") || quoridor_players != 2 {
            return Err("--match engine plays 2-player Quoridor: --game quoridor".to_string());
        }
        return engine::play(&run, command, None);
    }
    if run.kind == "titanium" {
        let peer = peer_path(
            &flags,
            "TITANIUM_QUORIDOR",
            "titanium",
            "a built checkout of titaniummachine1/titanium-quoridor",
        )?;
        if flags.get("game") != Some("quoridor") || quoridor_players != 2 || quoridor_size != 9 {
            return Err(
                "--match titanium plays 2-player 9x9 Quoridor: --game quoridor".to_string(),
            );
        }
        let command = format!("{peer}/target/release/titanium session --engine titanium-v15");
        return engine::play(&run, &command, Some(run.budget));
    }
    if run.kind == "animalchess" {
        let peer = peer_path(
            &flags,
            "ANIMAL_CHESS",
            "animalchess",
            "a checkout of netcan/AnimalChess with its driver built (BENCHMARKS.md)",
        )?;
        if flags.get("game").unwrap_or("jungle") != "jungle" {
            return Err("--match animalchess plays Jungle: --game jungle".to_string());
        }
        let program = format!("{peer}/driver/target/release/animal_chess_driver");
        return animalchess::play(&run, &program);
    }
    match flags.get("game").unwrap_or("jungle") {
        "jungle" => run_game::<Jungle>(&run),
        "quoridor" => run_game::<Quoridor>(&run),
        "crossyray" => run_game::<CrossyRay>(&run),
        "all" => {
            run_game::<Jungle>(&run);
            run_game::<Quoridor>(&run);
            run_game::<CrossyRay>(&run);
        }
        other => {
            return Err(format!(
                "--game is jungle, quoridor, crossyray or all, not {other:?}"
            ))
        }
    }
    Ok(())
}

fn run_game<G: Contest>(run: &Run) {
    println!("== {}", G::NAME);
    if run.kind == "think" {
        for level in Level::ALL {
            println!(
                "{:<12} {}",
                level.name(),
                G::think(&run.setup, level, run.budget)
            );
        }
        return;
    }
    let pairings: Vec<(Player, Player)> = if run.kind == "real" {
        vec![(Player::Bot(Level::Master), Player::Bot(Level::Professional))]
    } else if run.kind == "mixed" {
        vec![(Player::Bot(Level::Master), Player::Mixed)]
    } else if run.kind == "greedy" {
        vec![
            (Player::Bot(Level::Master), Player::Greedy),
            (Player::Bot(Level::Professional), Player::Greedy),
        ]
    } else {
        vec![
            (Player::Bot(Level::Master), Player::Bot(Level::Professional)),
            (
                Player::Bot(Level::Professional),
                Player::Bot(Level::Amateur),
            ),
            (Player::Bot(Level::Amateur), Player::Bot(Level::Beginner)),
            (Player::Bot(Level::Beginner), Player::Random),
        ]
    };
    println!(
        "budget: master {} ms per move (others take their share); {} games per match; {} threads",
        run.budget.as_millis(),
        run.games,
        run.threads
    );
    for level in Level::ALL {
        println!("  {:<12} {}", level.name(), G::describe(level, run.budget));
    }
    let start = Instant::now();
    for (strong, weak) in pairings {
        let t = Instant::now();
        let results = play_match::<G>(strong, weak, run);
        report(strong, weak, &results, t.elapsed());
    }
    println!("total {:.0} s", start.elapsed().as_secs_f64());
}

fn report(strong: Player, weak: Player, results: &[GameResult], took: Duration) {
    let wins = results.iter().filter(|r| r.score == 1.0).count();
    let draws = results.iter().filter(|r| r.score == 0.5).count();
    let losses = results.len() - wins - draws;
    let score: f64 = results.iter().map(|r| r.score).sum();
    let mut reasons: Vec<(String, usize)> = Vec::new();
    for r in results {
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
        took.as_secs_f64(),
        plies as f64 / results.len().max(1) as f64,
        reasons
            .iter()
            .map(|(name, n)| format!("{name} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
}

/// How one game went, from the stronger side's point of view.
struct GameResult {
    score: f64,
    /// The `EndReason`, prefixed `lost by` when the stronger side lost.
    reason: String,
    plies: usize,
}

/// Plays `run.games` games and returns how each went for `strong`. The
/// stronger player's side goes round, every round of games sharing one
/// opening (with two sides: pairs of games with the sides swapped).
fn play_match<G: Contest>(strong: Player, weak: Player, run: &Run) -> Vec<GameResult> {
    let sides = G::opening(&run.setup, &mut Rng::new(0)).sides();
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(run.games));
    std::thread::scope(|scope| {
        for _ in 0..run.threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= run.games {
                    break;
                }
                let strong_side = Side((i % sides) as u8);
                let opening = G::opening(
                    &run.setup,
                    &mut Rng::new(run.seed.wrapping_add((i / sides) as u64)),
                );
                let result = play_game(
                    strong,
                    weak,
                    strong_side,
                    opening,
                    run.budget,
                    run.seed ^ (i as u64) << 20,
                );
                results.lock().expect("results").push(result);
            });
        }
    });
    results.into_inner().expect("results")
}

fn play_game<G: Contest>(
    strong: Player,
    weak: Player,
    strong_side: Side,
    mut game: G,
    budget: Duration,
    seed: u64,
) -> GameResult {
    let cancel = AtomicBool::new(false);
    let mut rng = Rng::new(seed);
    while let Some(side) = game.to_move() {
        if game.ply() >= MAX_PLIES {
            break;
        }
        let mut player = if side == strong_side { strong } else { weak };
        if player == Player::Mixed {
            let after = (strong_side.0 as usize + 1) % game.sides();
            player = if side.index() == after {
                Player::Greedy
            } else {
                Player::Bot(Level::Professional)
            };
        }
        let mv = match player {
            Player::Random => {
                let moves = game.legal_moves();
                moves[rng.below(moves.len())].clone()
            }
            Player::Greedy => game.greedy(&mut rng),
            Player::Mixed => unreachable!("a seat of the mixed table plays as one of its kinds"),
            Player::Bot(level) => G::choose_move(
                &game,
                &Think {
                    level,
                    budget,
                    cancel: &cancel,
                    seed: rng.next_u64(),
                },
            )
            .expect("a move while the game is on"),
        };
        game.play(&mv).expect("the bot plays legal moves");
    }
    scored(&game, strong_side)
}

/// How `game` ended for `side`: its score (a draw or an unfinished game
/// ½) and the reason.
fn scored<G: Game>(game: &G, side: Side) -> GameResult {
    let (score, reason) = match game.outcome() {
        Some(Outcome::Win { winner, reason }) if *winner == side => (1.0, reason.to_string()),
        // With three sides or more, also who won: the winner's place in
        // turn order after the stronger side (+1 moves right after it).
        Some(Outcome::Win { winner, reason }) if game.sides() > 2 => (
            0.0,
            format!(
                "lost by {reason} to +{}",
                (winner.0 + game.sides() as u8 - side.0) % game.sides() as u8
            ),
        ),
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

/// Quoridor's Master against an outside program (`--match engine`).
mod engine {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
    use std::sync::atomic::AtomicBool;
    use std::sync::Mutex;
    use std::time::{Duration, Instant};

    use super::outside::Stop;
    use super::{report, scored, GameResult, Player, Run, MAX_PLIES};
    use rules::game::{Game, Side};
    use rules::quoridor::{self, Quoridor};
    use rules::rng::Rng;
    use rules::{Engine, Level, Think};

    struct Program {
        child: Child,
        input: ChildStdin,
        output: BufReader<ChildStdout>,
        /// `Some(time per move)`: titanium-quoridor's session protocol
        /// (`position M1 M2 …` answered `ready N`, `go SECONDS` answered
        /// `bestmove M`); `None`: the `moves M1 M2 …` protocol.
        session: Option<Duration>,
    }

    /// Our move in titanium-quoridor's notation: the same names on 9×9
    /// (cells `a1`-`i9` from the first player's side, walls by the cell at
    /// the bottom-left of the wall's centre plus `h`/`v`, checked against
    /// its `algebraic_to_move_id` and wall bits); it has no pass.
    pub fn to_titanium(mv: &quoridor::Move) -> Option<String> {
        let text = mv.to_string();
        (text != "pass").then_some(text)
    }

    /// Titanium-quoridor's answer read as our move (`(none)` and other
    /// strings that do not read are refused).
    pub fn from_titanium(text: &str) -> Result<quoridor::Move, String> {
        if text == "pass" {
            return Err("titanium-quoridor has no pass".to_string());
        }
        text.parse::<quoridor::Move>()
            .map_err(|e| format!("the program answered {text:?}: {e}"))
    }

    impl Program {
        fn start(command: &str, session: Option<Duration>) -> Result<Program, String> {
            let mut sh = Command::new("sh");
            sh.arg("-c").arg(command);
            // titanium-quoridor writes a line of search log on stderr per
            // depth: not wanted in the match's output.
            let stderr = if session.is_some() {
                Stdio::null()
            } else {
                Stdio::inherit()
            };
            let (child, input, output) = super::outside::spawn(sh, stderr, command)?;
            Ok(Program {
                child,
                input,
                output,
                session,
            })
        }

        /// The first word after `prefix` on the next line that starts with it
        /// (an `error …` line is an error).
        fn expect(&mut self, prefix: &str) -> Result<String, String> {
            loop {
                let mut line = String::new();
                let n = self
                    .output
                    .read_line(&mut line)
                    .map_err(|e| e.to_string())?;
                if n == 0 {
                    return Err("the program ended".to_string());
                }
                let line = line.trim();
                if line.starts_with("error") {
                    return Err(format!("the program said {line:?}"));
                }
                if let Some(rest) = line.strip_prefix(prefix) {
                    return Ok(rest.split_whitespace().next().unwrap_or("").to_string());
                }
            }
        }

        /// The program's move after `moves`.
        fn ask(&mut self, moves: &[String]) -> Result<String, String> {
            if let Some(time) = self.session {
                writeln!(self.input, "position {}", moves.join(" ")).map_err(|e| e.to_string())?;
                self.input.flush().map_err(|e| e.to_string())?;
                self.expect("ready")?;
                writeln!(self.input, "go {:.3}", time.as_secs_f64()).map_err(|e| e.to_string())?;
                self.input.flush().map_err(|e| e.to_string())?;
                return self.expect("bestmove ");
            }
            writeln!(self.input, "moves {}", moves.join(" ")).map_err(|e| e.to_string())?;
            self.input.flush().map_err(|e| e.to_string())?;
            let mut line = String::new();
            self.output
                .read_line(&mut line)
                .map_err(|e| e.to_string())?;
            line.split_whitespace()
                .next()
                .map(str::to_string)
                .ok_or_else(|| "the program ended".to_string())
        }
    }

    impl Drop for Program {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }

    /// Time spent per move, for equal time.
    #[derive(Default)]
    struct Clock {
        program: Duration,
        program_moves: u32,
        master: Duration,
        master_moves: u32,
    }

    pub fn play(run: &Run, command: &str, session: Option<Duration>) -> Result<(), String> {
        println!("== quoridor: master vs {command:?}");
        let pace = match session {
            Some(_) => format!("{} ms a move each", run.budget.as_millis()),
            None => format!(
                "master thinks as long as the program did on average ({} ms until it has moved)",
                run.budget.as_millis()
            ),
        };
        println!("{} games, {pace}; {} threads", run.games, run.threads);
        let clock = Mutex::new(Clock::default());
        let start = Instant::now();
        let (results, stopped) = super::outside::games(
            run,
            || Program::start(command, session),
            |program, i| {
                let opening = opening(run, &mut Rng::new(run.seed.wrapping_add((i / 2) as u64)));
                game(program, opening, Side((i % 2) as u8), run, &clock, i)
            },
            |i, r| {
                format!(
                    "master plays side {}, {} ({} plies)",
                    i % 2,
                    r.reason,
                    r.plies
                )
            },
        )?;
        let c = clock.into_inner().expect("clock");
        println!(
            "mean time per move: program {:.0} ms ({} moves), master {:.0} ms ({} moves)",
            c.program.as_secs_f64() * 1e3 / f64::from(c.program_moves.max(1)),
            c.program_moves,
            c.master.as_secs_f64() * 1e3 / f64::from(c.master_moves.max(1)),
            c.master_moves
        );
        report(
            Player::Bot(Level::Master),
            Player::Random,
            &results,
            start.elapsed(),
        );
        println!("(\"random\" above is the outside program)");
        println!(
            "{} games stopped on an illegal or unreadable answer (not scored)",
            stopped
        );
        Ok(())
    }

    /// Two random plies from the start, and their notation.
    fn opening(run: &Run, rng: &mut Rng) -> (Quoridor, Vec<String>) {
        let mut game = run.setup.quoridor();
        let mut moves = Vec::new();
        for _ in 0..2 {
            let legal = game.legal_moves();
            let mv = legal[rng.below(legal.len())];
            game.play(&mv).expect("legal");
            moves.push(mv.to_string());
        }
        (game, moves)
    }

    fn game(
        program: &mut Program,
        (mut game, mut moves): (Quoridor, Vec<String>),
        master_side: Side,
        run: &Run,
        clock: &Mutex<Clock>,
        i: usize,
    ) -> Result<GameResult, Stop> {
        let session = program.session.is_some();
        let cancel = AtomicBool::new(false);
        let mut rng = Rng::new(run.seed ^ (i as u64) << 20);
        while let Some(side) = game.to_move() {
            if game.ply() >= MAX_PLIES {
                break;
            }
            let mv = if side == master_side {
                let budget = {
                    let c = clock.lock().expect("clock");
                    if session || c.program_moves == 0 {
                        run.budget
                    } else {
                        c.program / c.program_moves
                    }
                };
                let t = Instant::now();
                let mv = game
                    .choose_move(&Think {
                        level: Level::Master,
                        budget,
                        cancel: &cancel,
                        seed: rng.next_u64(),
                    })
                    .ok_or(Stop::Broken("no move for master".to_string()))?;
                if session && to_titanium(&mv).is_none() {
                    return Err(Stop::Unscored(format!(
                        "master passed after {} (titanium-quoridor has no pass)",
                        moves.join(" ")
                    )));
                }
                let mut c = clock.lock().expect("clock");
                c.master += t.elapsed();
                c.master_moves += 1;
                mv
            } else {
                let t = Instant::now();
                let text = program.ask(&moves).map_err(Stop::Broken)?;
                let took = t.elapsed();
                let mut c = clock.lock().expect("clock");
                c.program += took;
                c.program_moves += 1;
                if session {
                    from_titanium(&text).map_err(Stop::Unscored)?
                } else {
                    text.parse::<quoridor::Move>().map_err(|e| {
                        Stop::Unscored(format!("the program answered {text:?}: {e}"))
                    })?
                }
            };
            game.play(&mv).map_err(|e| {
                Stop::Unscored(format!("illegal move {mv} after {}: {e}", moves.join(" ")))
            })?;
            moves.push(mv.to_string());
        }
        if std::env::var_os("LADDER_MOVES").is_some() {
            println!("game {:>3} moves: {}", i + 1, moves.join(" "));
        }
        Ok(scored(&game, master_side))
    }
}

#[cfg(test)]
mod tests {
    use super::engine::{from_titanium, to_titanium};
    use rules::quoridor;

    #[test]
    fn titanium_notation_is_ours_on_9x9_without_pass() {
        for text in ["e2", "a9", "i1", "e3h", "e3v", "a1h", "h8v"] {
            let mv: quoridor::Move = text.parse().expect("reads");
            assert_eq!(to_titanium(&mv).as_deref(), Some(text));
            assert_eq!(from_titanium(text).expect("reads"), mv);
        }
        let pass: quoridor::Move = "pass".parse().expect("reads");
        assert_eq!(to_titanium(&pass), None);
        assert!(from_titanium("(none)").is_err());
        assert!(from_titanium("pass").is_err());
    }
}
