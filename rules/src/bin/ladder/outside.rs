//! What the matches against outside programs share (`--match engine`,
//! `titanium`, `animalchess`): starting a program, and playing the games
//! over `--threads` threads with one program each.

use std::io::BufReader;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::{GameResult, Run};

/// Why a game against a program was not finished.
pub enum Stop {
    /// A move one side's rules refuse (or one that does not read), or a
    /// position the two rules end differently: that game is not scored.
    Unscored(String),
    /// The program or the match broke: the whole run stops.
    Broken(String),
}

/// A started program, its stdin and its stdout.
pub type Piped = (Child, ChildStdin, BufReader<ChildStdout>);

/// Starts `command` with its stdin and stdout piped (`name` for errors).
pub fn spawn(mut command: Command, stderr: Stdio, name: &str) -> Result<Piped, String> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .map_err(|e| format!("could not start {name:?}: {e}"))?;
    let input = child.stdin.take().ok_or("no stdin")?;
    let output = BufReader::new(child.stdout.take().ok_or("no stdout")?);
    Ok((child, input, output))
}

/// Plays games `0..run.games`, each thread with its own program from
/// `start`, game `i` by `game`; prints a line per game (`line` names a
/// finished one). The finished games and how many were not scored, or the
/// first breakage.
pub fn games<P>(
    run: &Run,
    start: impl Fn() -> Result<P, String> + Sync,
    game: impl Fn(&mut P, usize) -> Result<GameResult, Stop> + Sync,
    line: impl Fn(usize, &GameResult) -> String + Sync,
) -> Result<(Vec<GameResult>, usize), String> {
    let (next, stopped) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let results = Mutex::new(Vec::new());
    let failed = Mutex::new(None::<String>);
    let fail = |e: String| *failed.lock().expect("failed") = Some(e);
    std::thread::scope(|scope| {
        for _ in 0..run.threads.max(1) {
            scope.spawn(|| {
                let mut program = match start() {
                    Ok(p) => p,
                    Err(e) => return fail(e),
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= run.games || failed.lock().expect("failed").is_some() {
                        break;
                    }
                    match game(&mut program, i) {
                        Ok(r) => {
                            println!("game {:>3}: {}", i + 1, line(i, &r));
                            results.lock().expect("results").push(r);
                        }
                        Err(Stop::Unscored(e)) => {
                            println!("game {:>3}: stopped, not scored: {e}", i + 1);
                            stopped.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(Stop::Broken(e)) => fail(format!("game {}: {e}", i + 1)),
                    }
                }
            });
        }
    });
    match failed.into_inner().expect("failed") {
        Some(e) => Err(e),
        None => Ok((results.into_inner().expect("results"), stopped.into_inner())),
    }
}
