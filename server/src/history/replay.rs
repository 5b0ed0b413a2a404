//! A game replayed move by move with the rules, keeping each ply's
//! position (`AnyGame::replay_view`): the replay viewer draws these, so
//! the browser never applies a move itself and cannot disagree with the
//! server. Each step goes through the game log's one transition
//! ([`GameLog::apply`]), as live play's do.

use rules::game::SetupError;
use serde_json::Value;

use crate::game_log::{GameLog, LogError, Played, Step};
use crate::games::{GameKind, GameOptions};
use crate::model::records::Leave;

/// A game being replayed, with the position after every ply so far
/// (`positions[n]` after `n` moves; `positions[0]` is the start).
pub struct Replay {
    log: GameLog,
    positions: Vec<Value>,
}

impl Replay {
    pub fn new(options: &GameOptions) -> Result<Replay, SetupError> {
        let log = GameLog::new(options)?;
        let positions = vec![log.game.replay_view()];
        Ok(Replay { log, positions })
    }

    /// Applies one step of the log. A move played (by a player or by the
    /// rules for a side out of time) is a new ply; a takeback drops the
    /// plies it took back; anything else (a leave, an agreed draw) changes
    /// the last position. A refused step changes nothing.
    pub fn apply(&mut self, step: &Step) -> Result<Option<Played>, LogError> {
        let played = self.log.apply(step)?;
        let view = self.log.game.replay_view();
        self.positions.truncate(self.log.moves.len() + 1);
        match self.positions.last_mut() {
            Some(last) if played.is_none() => *last = view,
            _ => self.positions.push(view),
        }
        Ok(played)
    }

    /// Reads the move written `text` for the side to move and plays it;
    /// returns it in canonical notation.
    pub fn play(&mut self, text: &str) -> Result<String, LogError> {
        let step = self.log.read_move(text)?;
        let played = self.apply(&step)?;
        Ok(played.map(|p| p.mv.to_string()).unwrap_or_default())
    }

    /// Plays the leaves of `leaves` due after the moves played so far
    /// (those whose `ply` is the number of moves played).
    pub fn leave_due(&mut self, leaves: &[Leave]) {
        let played = self.log.moves.len();
        for leave in leaves.iter().filter(|l| l.ply == played) {
            let step = Step::Forfeit {
                sides: leave.sides.clone(),
                reason: leave.reason,
            };
            // A forfeit is never refused.
            let _ = self.apply(&step);
        }
    }

    pub fn log(&self) -> &GameLog {
        &self.log
    }

    pub fn into_positions(self) -> Vec<Value> {
        self.positions
    }
}

/// Each ply's position of a stored game, from its options (as stored),
/// moves and leaves: `positions[n]` is the game after `n` moves and the
/// leaves that followed them. It stops at the first move that does not
/// replay: a Quoridor game of 3+ pawns stored before its leaves were kept
/// lists nothing for a pawn's leaving, so the moves after it may not
/// replay.
pub fn positions(
    kind: GameKind,
    options: &Value,
    moves: &[String],
    leaves: &[Leave],
) -> Vec<Value> {
    let Some(mut replay) = GameOptions::parse(kind, options)
        .ok()
        .and_then(|o| Replay::new(&o).ok())
    else {
        return Vec::new();
    };
    replay.leave_due(leaves);
    for mv in moves {
        if replay.play(mv).is_err() {
            break;
        }
        replay.leave_due(leaves);
    }
    replay.into_positions()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::{EndReason, Side};
    use serde_json::json;

    #[test]
    fn every_ply_has_its_position() {
        let moves: Vec<String> = ["8 a3-a4", "8 g7-g6", "8 a4-a5"].map(String::from).into();
        let p = positions(GameKind::Jungle, &json!({"mode": "single"}), &moves, &[]);
        assert_eq!(p.len(), 4);
        assert_eq!(
            p[0]["position"],
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1"
        );
        assert_eq!(
            p[1]["position"],
            "l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L r 1 1"
        );
        assert_eq!(p[3]["ply"], 3);
        assert_eq!(p[3]["last_move"], "8 a4-a5");
        // The move list is not repeated at every ply.
        assert!(p[3].get("moves").is_none() && p[3].get("legal_moves").is_none());
        assert!(p[3]["pieces"].as_array().is_some_and(|a| a.len() == 16));
    }

    #[test]
    fn a_move_that_does_not_replay_ends_the_positions() {
        let moves: Vec<String> = ["f4", "a1", "h4"].map(String::from).into();
        let p = positions(
            GameKind::CrossyRay,
            &json!({"width": 9, "height": 7}),
            &moves,
            &[],
        );
        assert_eq!(p.len(), 2, "the start and f4; a1 is out of range");
        assert_eq!(p[1]["origin"], "f4");
        let q = positions(
            GameKind::Quoridor,
            &json!({"mode": "ffa"}),
            &["e2".to_string()],
            &[],
        );
        assert_eq!(q[1]["pawns"][0], "e2");
        assert!(positions(GameKind::Quoridor, &json!({"size": 4}), &[], &[]).is_empty());
    }

    #[test]
    fn a_pawn_leaves_where_its_player_left_and_the_game_replays_to_its_end() {
        let moves: Vec<String> = ["e2", "b5", "e8", "e3", "e7"].map(String::from).into();
        let options = json!({"players": 3});
        // Side 1 abandoned after two moves; then sides 2 and 0 play on.
        let leaves = [Leave {
            ply: 2,
            sides: vec![Side(1)],
            reason: EndReason::Abandon,
        }];
        let p = positions(GameKind::Quoridor, &options, &moves, &leaves);
        assert_eq!(p.len(), 6, "every move replays");
        assert_eq!(p[1]["pawns"], json!(["e2", "a5", "e9"]));
        assert_eq!(
            p[2]["pawns"],
            json!(["e2", null, "e9"]),
            "gone after move 2"
        );
        assert_eq!(p[2]["to_move"], 2);
        assert_eq!(p[5]["pawns"], json!(["e3", null, "e7"]));
        // Without the leave, side 1 would be to move at move 5: e7 is not
        // its move, and the positions stop there.
        assert_eq!(
            positions(GameKind::Quoridor, &options, &moves, &[]).len(),
            5
        );
        // A leave that ends the game shows in the last position.
        let resigned = [Leave {
            ply: 5,
            sides: vec![Side(0), Side(2)],
            reason: EndReason::Resign,
        }];
        let leaves = [leaves[0].clone(), resigned[0].clone()];
        let p = positions(GameKind::Quoridor, &options, &moves, &leaves);
        assert_eq!(p.len(), 6);
        assert_eq!(p[5]["outcome"]["reason"], "default");
        assert_eq!(p[4]["outcome"], Value::Null);
    }

    #[test]
    fn a_takeback_drops_the_plies_it_took_back() {
        let options = GameOptions::parse(GameKind::Jungle, &json!({"mode": "single"})).unwrap();
        let mut replay = Replay::new(&options).unwrap();
        for text in ["8 a3-a4", "8 g7-g6", "8 a4-a5"] {
            replay.play(text).unwrap();
        }
        assert_eq!(replay.apply(&Step::Takeback { plies: 2 }), Ok(None));
        replay.play("8 g7-g8").unwrap();
        let moves: Vec<String> = ["8 a3-a4", "8 g7-g8"].map(String::from).into();
        assert_eq!(replay.log().moves, moves);
        assert_eq!(
            replay.into_positions(),
            positions(GameKind::Jungle, &json!({"mode": "single"}), &moves, &[])
        );
    }
}
