//! The analysis of finished games (and imported ones): the game's engine
//! judges every position as a win chance for each side, with its best
//! move, and every move is graded by how much of its player's chance it
//! gave away (rules `coach`, RULES.md "Analysis").
//!
//! A request (`api.rs`) stores the game as a job in the store's
//! `analyses` table (bounded per address and in all); the workers
//! (`worker.rs`, `--analysis-workers` per node) take the oldest waiting
//! job, judge its positions one by one in the search slots the computer
//! players use (live play first: `bots::Slots`), and save each judgement
//! as they go, so a restart resumes where it stopped and every node serves
//! the results. The grading ([`report`]) is worked out from the saved
//! judgements when the analysis is read: the thresholds live in one place.

pub mod api;
pub mod worker;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use rules::coach::{self, Assessment};
use rules::{EndReason, Game, Side};
use serde_json::{json, Value};

use crate::game_log::Leave;
use crate::games::{AnyGame, GameKind, GameOptions};
use crate::store::StoredAnalysis;

/// The game at every ply: `games[n]` after `n` moves and the leaves that
/// followed them, except a resignation or an abandon that would end the
/// game (no position to judge: the last one is the position it left; a
/// turn-based timeout that ends it is the end). Stops before a move that
/// does not replay.
pub fn games_of(
    kind: GameKind,
    options: &Value,
    moves: &[String],
    leaves: &[Leave],
) -> Vec<AnyGame> {
    let Some(mut game) = GameOptions::parse(kind, options)
        .ok()
        .and_then(|o| AnyGame::new(&o).ok())
    else {
        return Vec::new();
    };
    let leave = |game: &mut AnyGame, ply: usize| {
        for l in leaves.iter().filter(|l| l.ply == ply) {
            let mut after = game.clone();
            for &side in &l.sides {
                after.forfeit(side, l.reason);
            }
            let left_by_choice = matches!(l.reason, EndReason::Resign | EndReason::Abandon);
            if !after.is_over() || !left_by_choice {
                *game = after;
            }
        }
    };
    leave(&mut game, 0);
    let mut games = vec![game.clone()];
    for (i, mv) in moves.iter().enumerate() {
        if game.play_text(mv).is_err() {
            break;
        }
        leave(&mut game, i + 1);
        games.push(game.clone());
    }
    games
}

/// Judges `game` with `budget` of Master search; `None` when `cancel` was
/// set meanwhile. The judgement as it is stored: `{"ply", "to_move",
/// "chances", "standing", "best", "score", "depth"}`.
pub fn judge(game: &AnyGame, budget: Duration, cancel: &AtomicBool) -> Option<Value> {
    fn stored<M: std::fmt::Display>(
        a: Assessment<M>,
    ) -> (Option<String>, Vec<f64>, Vec<f64>, Option<i32>, u32) {
        (
            a.best.map(|m| m.to_string()),
            a.chances,
            a.standing,
            a.score,
            a.depth,
        )
    }
    let (best, chances, standing, score, depth) = match game {
        AnyGame::CrossyRay(g) => stored(coach::assess(g, budget, Some(cancel))?),
        AnyGame::Quoridor(g) => stored(coach::assess(g, budget, Some(cancel))?),
        AnyGame::Jungle(g) => stored(coach::assess(g, budget, Some(cancel))?),
    };
    let round = |c: Vec<f64>| {
        c.into_iter()
            .map(|p| (p * 10_000.0).round() / 10_000.0)
            .collect::<Vec<_>>()
    };
    Some(json!({
        "ply": game.ply(),
        "to_move": game.to_move().map(|s| s.0),
        "chances": round(chances),
        "standing": round(standing),
        "best": best,
        "score": score,
        "depth": depth,
    }))
}

fn chances(v: &Value, key: &str) -> Vec<f64> {
    v[key]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default()
}

/// The analysis as the API gives it (PROTOCOL.md "Analysis"): the
/// judged positions, every move whose positions before and after are
/// judged with its grade, and each side's summary.
pub fn report(a: &StoredAnalysis, sides: usize) -> Value {
    let positions: Vec<Value> = a
        .positions
        .iter()
        .map(|p| {
            let mut p = p.clone();
            if let Some(o) = p.as_object_mut() {
                o.remove("standing");
            }
            p
        })
        .collect();
    let mut moves = Vec::new();
    let mut drops: Vec<Vec<f64>> = vec![Vec::new(); sides];
    for (k, pair) in a.positions.windows(2).enumerate() {
        let (before, after) = (&pair[0], &pair[1]);
        let Some(side) = before["to_move"].as_u64() else {
            break;
        };
        let played = a.moves.get(k).cloned().unwrap_or_default();
        let best = before["best"].as_str().map(str::to_string);
        let drop = coach::drop_of(
            Side(side as u8),
            &chances(before, "chances"),
            &chances(after, "standing"),
            best.as_deref() == Some(played.as_str()),
        );
        let drop = (drop * 10_000.0).round() / 10_000.0;
        if let Some(d) = drops.get_mut(side as usize) {
            d.push(drop);
        }
        moves.push(json!({
            "ply": k + 1,
            "side": side,
            "move": played,
            "best": best,
            "drop": drop,
            "grade": coach::grade(drop),
            "accuracy": (coach::accuracy(drop) * 10.0).round() / 10.0,
        }));
    }
    let players: Vec<Value> = drops
        .iter()
        .enumerate()
        .map(|(side, d)| {
            let count = |g: coach::Grade| d.iter().filter(|&&x| coach::grade(x) == Some(g)).count();
            let accuracy = (!d.is_empty()).then(|| {
                let mean = d.iter().map(|&x| coach::accuracy(x)).sum::<f64>() / d.len() as f64;
                (mean * 10.0).round() / 10.0
            });
            json!({
                "side": side,
                "accuracy": accuracy,
                "inaccuracies": count(coach::Grade::Inaccuracy),
                "mistakes": count(coach::Grade::Mistake),
                "blunders": count(coach::Grade::Blunder),
            })
        })
        .collect();
    json!({
        "id": a.id,
        "game": a.game,
        "status": a.status,
        "total": a.total.saturating_sub(1),
        "analysed": moves.len(),
        "positions": positions,
        "moves": moves,
        "players": players,
    })
}

#[cfg(test)]
mod tests;
