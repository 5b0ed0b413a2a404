//! `perft <game> <depth> [options]`: counts the leaf nodes of the move tree
//! and prints the count alone on the last line.
//!
//! ```text
//! cargo run --release -p rules --bin perft -- crossyray 4 --width 9 --height 7
//! cargo run --release -p rules --bin perft -- quoridor 3 --size 9 --players 2
//! cargo run --release -p rules --bin perft -- jungle 4
//! ```

use std::process::ExitCode;
use std::time::Instant;

use rules::cli::Flags;

fn main() -> ExitCode {
    rules::cli::main(
        "perft",
        "usage: perft <crossyray|quoridor|jungle> <depth> [--option value ...]",
        run,
    )
}

fn run(args: &[String]) -> Result<(), String> {
    let [game, depth, rest @ ..] = args else {
        return Err("missing game or depth".into());
    };
    let depth: u32 = depth
        .parse()
        .map_err(|_| format!("depth must be a number, not {depth:?}"))?;
    let flags = Flags::parse(rest)?;
    let start = Instant::now();
    let nodes = match game.as_str() {
        "crossyray" => rules::crossyray::perft_cli(depth, &flags)?,
        "quoridor" => rules::quoridor::perft_cli(depth, &flags)?,
        "jungle" => rules::jungle::perft_cli(depth, &flags)?,
        other => return Err(format!("unknown game {other:?}")),
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{game} perft({depth}) = {nodes} in {secs:.3} s ({:.0} nodes/s)",
        nodes as f64 / secs.max(1e-9)
    );
    println!("{nodes}");
    Ok(())
}
