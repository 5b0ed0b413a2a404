//! The text export of a finished game and its import: header lines
//! `[Key "value"]`, a blank line, then the moves one per line (`1. e5`),
//! in the game's own notation, with a line `side 2 leaves (abandon)`
//! where a side left. An import replays every move and leave with the
//! rules, through the game log's one transition (`game_log`), so a text
//! that reads is a game that was legal.
//!
//! An import is bounded: its text by the request body limit (16 KiB),
//! its moves by [`MAX_IMPORT_MOVES`] (counted before anything is
//! replayed), its answer by [`MAX_IMPORT_ANSWER`], and its rate per
//! address by `Limits::imports`.

use rules::{EndReason, Game, Outcome, Side};
use serde_json::Value;

use super::replay::Replay;
use crate::game_log::Step;
use crate::games::{AnyGame, GameKind, GameOptions};
use crate::model::records::GameRecord;
use crate::model::records::Leave;

/// Most moves an imported text may have (the longest games the site's
/// rules allow, Jungle's with 100 moves between captures, come near it).
pub const MAX_IMPORT_MOVES: usize = 1000;

/// Largest answer to an import (the game with the position after every
/// move), in bytes.
pub const MAX_IMPORT_ANSWER: usize = 1024 * 1024;

/// How many move lines `text` has (lines after the headers that are not
/// blank and not a `side S leaves (…)` line), without reading them.
pub fn move_lines(text: &str) -> usize {
    text.lines()
        .map(str::trim)
        .skip_while(|l| !l.is_empty())
        .filter(|l| !l.is_empty() && !l.starts_with("side "))
        .count()
}

/// A game read back from its text, every move checked.
#[derive(Clone, Debug)]
pub struct Imported {
    pub game: GameKind,
    pub options: Value,
    pub players: Vec<String>,
    pub moves: Vec<String>,
    /// The sides that left, and after how many moves.
    pub leaves: Vec<Leave>,
    pub outcome: Outcome,
    /// The position after each ply (`positions[0]` the start).
    pub positions: Vec<Value>,
}

/// Why a text is not a game: the first bad line (from 1) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

fn bad(line: usize, message: impl Into<String>) -> ImportError {
    ImportError {
        line,
        message: message.into(),
    }
}

/// The game as text.
pub fn export(g: &GameRecord) -> String {
    let mut out = String::new();
    let mut header = |key: &str, value: &str| {
        out.push_str(&format!("[{key} \"{}\"]\n", escape(value)));
    };
    header("Game", &g.game);
    // A room its reader may not see is left out (its code is an invitation).
    if !g.room_code.is_empty() {
        header("Room", &g.room_code);
    }
    header("Number", &g.number.to_string());
    header("Options", &g.options.to_string());
    for (i, name) in g.players.iter().enumerate() {
        header(&format!("Side{i}"), name);
    }
    header("Date", &date(g.ended_at));
    let result = serde_json::from_value::<Outcome>(g.outcome.clone())
        .map(|o| result_text(&o))
        .unwrap_or_default();
    header("Result", &result);
    out.push('\n');
    let leaves_after = |ply: usize, out: &mut String| {
        for leave in g.leaves.iter().filter(|l| l.ply == ply) {
            for side in &leave.sides {
                out.push_str(&format!("side {} leaves ({})\n", side.0, leave.reason));
            }
        }
    };
    leaves_after(0, &mut out);
    for (i, mv) in g.moves.iter().enumerate() {
        out.push_str(&format!("{}. {mv}\n", i + 1));
        leaves_after(i + 1, &mut out);
    }
    out
}

/// A number as the text writes it: decimal digits without a leading
/// zero (`0` itself aside). `+1`, `01`, ` 1` are not numbers here.
fn number(text: &str) -> Option<usize> {
    let plain = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    plain.then(|| text.parse().ok()).flatten()
}

/// The move of a move line `N. move` (the line's outer white space
/// already gone), `N` being `expected`: the number in decimal digits
/// without a leading zero, a `.` right after it, white space (at least
/// one space), then the move. What is wrong otherwise.
fn move_of(line: &str, expected: usize) -> Result<&str, String> {
    let Some((written, rest)) = line.split_once('.') else {
        return Err(format!("expected \"{expected}. <move>\""));
    };
    if written.is_empty() || !written.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "expected \"{expected}. <move>\": {written:?} is not a move number"
        ));
    }
    if number(written).is_none() && written.starts_with('0') {
        return Err(format!(
            "move number {written:?} has a leading zero: expected \"{expected}. <move>\""
        ));
    }
    if number(written) != Some(expected) {
        return Err(format!("expected move number {expected}, not {written}"));
    }
    let mv = rest.trim_start();
    if mv.is_empty() {
        return Err(format!("expected a move after \"{expected}.\""));
    }
    if mv.len() == rest.len() {
        return Err(format!(
            "expected a space after \"{expected}.\" (\"{expected}. {mv}\")"
        ));
    }
    Ok(mv)
}

/// `side 2 leaves (abandon)` → (side, reason).
fn parse_leave(line: &str) -> Option<(Side, EndReason)> {
    let rest = line.strip_prefix("side ")?;
    let (side, reason) = rest.strip_suffix(')')?.split_once(" leaves (")?;
    let reason: EndReason = serde_json::from_value(Value::String(reason.to_string())).ok()?;
    // A turn-based game's missed deadline is a leave too (`timeout`).
    matches!(
        reason,
        EndReason::Resign | EndReason::Abandon | EndReason::Timeout
    )
    .then_some(())
    .and(Some((Side(number(side)?.try_into().ok()?), reason)))
}

/// `side 0 wins (goal)`, `draw (repetition)`, `aborted (abandon)`.
pub fn result_text(o: &Outcome) -> String {
    match o {
        Outcome::Win { winner, reason } => format!("side {} wins ({reason})", winner.0),
        Outcome::Draw { reason } => format!("draw ({reason})"),
        Outcome::Aborted { reason } => format!("aborted ({reason})"),
    }
}

fn parse_result(text: &str) -> Option<Outcome> {
    let (what, reason) = text.trim().strip_suffix(')')?.split_once(" (")?;
    let reason: EndReason = serde_json::from_value(Value::String(reason.to_string())).ok()?;
    Some(match what {
        "draw" => Outcome::Draw { reason },
        "aborted" => Outcome::Aborted { reason },
        _ => {
            let side = what.strip_prefix("side ")?.strip_suffix(" wins")?;
            Outcome::Win {
                winner: Side(number(side)?.try_into().ok()?),
                reason,
            }
        }
    })
}

/// Whether `kind` can end with `outcome` at all (RULES.md, "Results").
fn can_end(kind: GameKind, outcome: &Outcome) -> bool {
    use EndReason::*;
    let reason = outcome.reason();
    match (kind, outcome) {
        (GameKind::CrossyRay, Outcome::Win { .. }) => {
            matches!(reason, Goal | OwnGoal | Lock | Timeout | Resign | Abandon)
        }
        (GameKind::Quoridor, Outcome::Win { .. }) => matches!(reason, Goal | Default),
        (GameKind::Quoridor, Outcome::Draw { .. }) => matches!(reason, MoveLimit | Abandon),
        (GameKind::Quoridor, Outcome::Aborted { .. }) => {
            matches!(reason, Resign | Abandon | Timeout)
        }
        (GameKind::Jungle, Outcome::Win { .. }) => {
            matches!(reason, Den | NoMoves | Timeout | Resign | Abandon)
        }
        (GameKind::Jungle, Outcome::Draw { .. }) => {
            matches!(reason, Repetition | NoCapture | Agreement | Abandon)
        }
        _ => false,
    }
}

/// Reads a game's text back, replaying its moves.
pub fn import(text: &str) -> Result<Imported, ImportError> {
    // A byte order mark, as Windows editors write one, is no part of the
    // first header.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().collect();
    let mut kind = None;
    let mut options = (0, Value::Null);
    let mut players: Vec<(usize, String)> = Vec::new();
    let mut result = None;
    let mut seen = std::collections::HashSet::new();
    let mut i = 0;
    while i < lines.len() && !lines[i].trim().is_empty() {
        let n = i + 1;
        let (key, value) = header_of(lines[i]).map_err(|e| bad(n, e))?;
        // A header that says what the game is says it once.
        if matches!(key, "Game" | "Options" | "Result") && !seen.insert(key) {
            return Err(bad(n, format!("a second [{key}] header")));
        }
        match key {
            "Game" => kind = Some(GameKind::parse(&value).map_err(|e| bad(n, e))?),
            "Options" => {
                let v = serde_json::from_str(&value)
                    .map_err(|e| bad(n, format!("options are not JSON: {e}")))?;
                options = (n, v);
            }
            "Result" => {
                let o = parse_result(&value).ok_or_else(|| {
                    bad(
                        n,
                        format!("unreadable result {value:?} (e.g. \"side 0 wins (goal)\")"),
                    )
                })?;
                result = Some((n, o));
            }
            _ => {
                if let Some(side) = key.strip_prefix("Side") {
                    let side = number(side).ok_or_else(|| bad(n, "bad side number"))?;
                    if side != players.len() {
                        return Err(bad(n, format!("expected Side{}", players.len())));
                    }
                    let length = value.chars().count();
                    if value.trim().is_empty() || length > SIDE_NAME_MAX {
                        return Err(bad(
                            n,
                            format!(
                                "a side's name has 1-{SIDE_NAME_MAX} characters ({length} here)"
                            ),
                        ));
                    }
                    players.push((n, value));
                }
                // Other headers (Room, Number, Date, …) are informative.
            }
        }
        i += 1;
    }
    let first = i + 1;
    let kind = kind.ok_or_else(|| bad(first.min(lines.len().max(1)), "no [Game \"…\"] header"))?;
    let parsed = GameOptions::parse(kind, &options.1).map_err(|e| bad(options.0.max(1), e))?;
    let mut replay = Replay::new(&parsed).map_err(|e| bad(options.0.max(1), e.to_string()))?;
    let sides = replay.log().game.sides();
    if let Some((n, _)) = players.get(sides).or(players.last()) {
        if players.len() != sides {
            return Err(bad(
                *n,
                format!("{} players for a game of {} sides", players.len(), sides),
            ));
        }
    }
    for (j, line) in lines.iter().enumerate().skip(i) {
        let n = j + 1;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let log = replay.log();
        let played = log.moves.len();
        if line.starts_with("side ") {
            let (side, reason) = parse_leave(line).ok_or_else(|| {
                bad(
                    n,
                    "expected \"side N leaves (resign)\", \"(abandon)\" or \"(timeout)\"",
                )
            })?;
            // A leave after the game ended belongs to the leave that ended
            // it (two sides gone at once); anything else is out of place.
            let with_last = log.leaves.last().is_some_and(|l| l.ply == played);
            if side.index() >= sides || (log.game.is_over() && !with_last) {
                return Err(bad(n, format!("side {} cannot leave here", side.0)));
            }
            // Only the clock of the side to move runs: no other side
            // misses a deadline.
            if reason == EndReason::Timeout && log.game.to_move() != Some(side) {
                return Err(bad(
                    n,
                    format!(
                        "side {} cannot leave here: only the side to move runs out of time",
                        side.0
                    ),
                ));
            }
            // A side leaves once.
            if log.leaves.iter().any(|l| l.sides.contains(&side)) {
                return Err(bad(
                    n,
                    format!("side {} cannot leave here: it already left", side.0),
                ));
            }
            let step = Step::Forfeit {
                sides: vec![side],
                reason,
            };
            replay
                .apply(&step)
                .map_err(|e| bad(n, format!("side {} cannot leave here: {e}", side.0)))?;
            continue;
        }
        let mv = move_of(line, played + 1).map_err(|e| bad(n, e))?;
        if log.game.is_over() {
            return Err(bad(n, "the game is already over"));
        }
        replay
            .play(mv)
            .map_err(|e| bad(n, format!("illegal move {mv:?}: {e}")))?;
    }
    let log = replay.log();
    let game = &log.game;
    let outcome = match (game.outcome().cloned(), result) {
        (Some(o), Some((n, said))) if o != said => {
            return Err(bad(
                n,
                format!("the moves end the game as {:?}", result_text(&o)),
            ))
        }
        (Some(o), _) => o,
        (None, Some((n, said))) => {
            let outside = matches!(
                said.reason(),
                EndReason::Timeout
                    | EndReason::Resign
                    | EndReason::Abandon
                    | EndReason::Default
                    | EndReason::Agreement
            );
            let side_ok = said.winner().is_none_or(|w| w.index() < game.sides());
            // Only the clock of the side to move runs: of two sides, the
            // other cannot have lost on time.
            let on_time_ok = !(said.reason() == EndReason::Timeout
                && game.sides() == 2
                && said.winner().is_some()
                && said.winner() == game.to_move());
            // A Quoridor game is aborted only before two moves in all, and
            // won by `default` from outside the text only when one
            // opponent is left to go (more would need their leave lines).
            let quoridor_ok = match (game, &said) {
                (AnyGame::Quoridor(_), Outcome::Aborted { .. }) => log.moves.len() < 2,
                (AnyGame::Quoridor(q), Outcome::Win { reason, .. })
                    if *reason == EndReason::Default =>
                {
                    q.active_sides().count() == 2 && log.moves.len() >= 2
                }
                _ => true,
            };
            if !outside || !side_ok || !on_time_ok || !quoridor_ok || !can_end(kind, &said) {
                return Err(bad(n, "the moves do not end the game this way"));
            }
            said
        }
        (None, None) => return Err(bad(first, "the game is not over and there is no [Result]")),
    };
    let moves = log.moves.clone();
    let leaves = merged(&log.leaves);
    Ok(Imported {
        game: kind,
        options: parsed.to_json(),
        players: players.into_iter().map(|(_, p)| p).collect(),
        moves,
        leaves,
        outcome,
        positions: replay.into_positions(),
    })
}

/// The leaves as an imported text lists them: one line a side, so the
/// sides that left together (after the same move, for the same reason)
/// are one leave again.
fn merged(leaves: &[Leave]) -> Vec<Leave> {
    let mut out: Vec<Leave> = Vec::new();
    for leave in leaves {
        match out.last_mut() {
            Some(last) if last.ply == leave.ply && last.reason == leave.reason => {
                last.sides.extend_from_slice(&leave.sides)
            }
            _ => out.push(leave.clone()),
        }
    }
    out
}

/// Longest side name an import reads: a team's four names of 24
/// characters joined by " + " is 105; the export never writes more.
const SIDE_NAME_MAX: usize = 120;

/// `[Key "value"]` → (key, unescaped value), or what is wrong with the
/// line: only `\"` and `\\` are escapes, and a value holds no control
/// characters (the export writes none: names have none, and JSON escapes
/// its own).
fn header_of(line: &str) -> Result<(&str, String), &'static str> {
    const FORM: &str = "expected a header like [Game \"jungle\"] or a blank line";
    let inner = line
        .trim()
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or(FORM)?;
    let (key, rest) = inner.split_once(' ').ok_or(FORM)?;
    let quoted = rest
        .trim()
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or(FORM)?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('"' | '\\')) => value.push(e),
                _ => return Err("in a header value only \\\" and \\\\ are escapes"),
            },
            '"' => return Err(FORM),
            c if c.is_control() => return Err("a header value holds a control character"),
            c => value.push(c),
        }
    }
    Ok((key, value))
}

fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

/// `YYYY-MM-DD` (UTC) of a time in unix milliseconds.
pub fn date(ms: i64) -> String {
    // Howard Hinnant's civil_from_days.
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(1_796_083_200_000), "2026-12-01");
        assert_eq!(date(951_782_400_000), "2000-02-29");
    }

    #[test]
    fn results_read_back() {
        for o in [
            Outcome::Win {
                winner: Side(1),
                reason: EndReason::Resign,
            },
            Outcome::Draw {
                reason: EndReason::Repetition,
            },
            Outcome::Aborted {
                reason: EndReason::Abandon,
            },
        ] {
            assert_eq!(parse_result(&result_text(&o)), Some(o));
        }
    }

    /// A `[Result]` the moves do not reach must be one the game can end
    /// with (RULES.md's table): a Jungle game is never aborted, CrossyRay
    /// has no draws (an outside check imported `aborted (default)`).
    #[test]
    fn a_result_the_game_cannot_have_is_refused() {
        let jungle = |result: &str| {
            import(&format!(
                "[Game \"jungle\"]\n[Result \"{result}\"]\n\n1. 8 a3-a4\n2. 8 g7-g6\n"
            ))
        };
        for refused in [
            "aborted (default)",
            "aborted (resign)",
            "side 0 wins (goal)",
            "draw (move_limit)",
            // Side 0 is to move: side 1's clock was not running.
            "side 0 wins (timeout)",
        ] {
            let e = jungle(refused).expect_err(refused);
            assert_eq!(e.line, 2, "{refused}: {}", e.message);
        }
        for read in [
            "side 1 wins (timeout)",
            "side 1 wins (resign)",
            "draw (agreement)",
            "draw (abandon)",
        ] {
            assert!(jungle(read).is_ok(), "{read}");
        }
        let crossyray = "[Game \"crossyray\"]\n[Result \"draw (agreement)\"]\n\n1. e4\n";
        assert!(import(crossyray).is_err(), "no draws in CrossyRay");
    }

    /// A Quoridor game is aborted only before two moves in all, and a win
    /// by `default` without leave lines needs a single opponent left (an
    /// outside check imported both after four moves, and among three).
    #[test]
    fn a_quoridor_result_the_moves_rule_out_is_refused() {
        let quoridor = |options: &str, result: &str, moves: &str| {
            import(&format!(
                "[Game \"quoridor\"]\n[Options \"{options}\"]\n[Result \"{result}\"]\n\n{moves}"
            ))
        };
        let four = "1. e2\n2. e8\n3. e3\n4. e7\n";
        let e = quoridor("{}", "aborted (resign)", four).expect_err("aborted late");
        assert_eq!(e.line, 3, "{}", e.message);
        assert!(quoridor("{}", "aborted (resign)", "1. e2\n").is_ok());
        assert!(quoridor("{}", "side 0 wins (default)", four).is_ok());
        let three = r#"{\"players\":3}"#;
        let e = quoridor(three, "side 0 wins (default)", "1. e2\n2. a4\n3. e8\n")
            .expect_err("two opponents still on the board");
        assert_eq!(e.line, 3, "{}", e.message);
    }

    #[test]
    fn a_timeout_leave_is_the_side_to_move_s_and_a_default_win_needs_two_moves() {
        // After Red's move only Yellow's clock runs.
        let jungle = "[Game \"jungle\"]\n[Result \"side 1 wins (timeout)\"]\n\n1. 8 a3-a4\n";
        let e = import(&format!("{jungle}side 0 leaves (timeout)\n")).unwrap_err();
        let e = e.to_string();
        assert!(
            e.starts_with("line 5: side 0 cannot leave here: only the side to move"),
            "{e}"
        );
        let ok = jungle.replace("side 1 wins", "side 0 wins");
        assert!(import(&format!("{ok}side 1 leaves (timeout)\n")).is_ok());
        // Before two moves in all a Quoridor game is aborted, never won
        // by default (RULES.md "Results").
        let early = "[Game \"quoridor\"]\n[Result \"side 0 wins (default)\"]\n\n";
        for moves in ["", "1. e2\n"] {
            let e = import(&format!("{early}{moves}")).unwrap_err().to_string();
            assert!(
                e.contains("the moves do not end the game this way"),
                "{moves:?}: {e}"
            );
        }
        assert!(import(&format!("{early}1. e2\n2. e8\n")).is_ok());
    }

    #[test]
    fn move_lines_count_moves_not_headers_or_leaves() {
        let text = "[Game \"jungle\"]\n[Side0 \"Minh\"]\n\n1. 8 a3-a4\n\n2. 8 g7-g6\nside 0 leaves (resign)\n";
        assert_eq!(move_lines(text), 2);
        assert_eq!(move_lines("[Game \"jungle\"]\n"), 0);
    }

    /// A turn-based game lost on time stores its leave with reason
    /// `timeout`, and its text imports again.
    #[test]
    fn a_leave_on_time_reads_back() {
        let text = "[Game \"jungle\"]\n[Result \"side 0 wins (timeout)\"]\n\n1. 8 a3-a4\nside 1 leaves (timeout)\n";
        let imported = import(text).expect("imports");
        assert_eq!(imported.leaves.len(), 1);
        assert_eq!(imported.leaves[0].reason, EndReason::Timeout);
        assert_eq!(imported.leaves[0].sides, [Side(1)]);
        assert_eq!(
            imported.outcome,
            Outcome::Win {
                winner: Side(0),
                reason: EndReason::Timeout
            }
        );
        assert!(import(&text.replace("(timeout)\n", "(goal)\n")).is_err());
    }

    #[test]
    fn a_header_that_says_what_the_game_is_comes_once() {
        for (text, line) in [
            ("[Game \"jungle\"]\n[Game \"crossyray\"]\n[Result \"side 1 wins (resign)\"]\n\n1. e5\n", 2),
            ("[Game \"crossyray\"]\n[Options \"{}\"]\n[Options \"{}\"]\n\n1. e5\n", 3),
            ("[Game \"crossyray\"]\n[Result \"side 1 wins (resign)\"]\n[Result \"side 0 wins (resign)\"]\n\n1. e5\n", 3),
        ] {
            let e = import(text).unwrap_err();
            assert_eq!(e.line, line, "{text}: {e}");
            assert!(e.to_string().contains("a second ["), "{e}");
        }
        // Informative headers may repeat.
        let twice = "[Game \"crossyray\"]\n[Date \"2026-11-30\"]\n[Date \"2026-12-01\"]\n[Result \"side 1 wins (resign)\"]\n\n1. e5\n";
        assert!(import(twice).is_ok());
    }

    #[test]
    fn a_move_line_is_its_number_a_dot_white_space_and_the_move() {
        assert_eq!(move_of("1. e5", 1), Ok("e5"));
        assert_eq!(move_of("12.  8 a3-a4", 12), Ok("8 a3-a4"));
        assert_eq!(move_of("3.\te5", 3), Ok("e5"));
        for (line, wrong) in [
            ("1.e5", "expected a space after"),
            ("01. e5", "leading zero"),
            ("00. e5", "leading zero"),
            ("+1. e5", "is not a move number"),
            (" 1. e5", "is not a move number"),
            ("1 . e5", "is not a move number"),
            (". e5", "is not a move number"),
            ("2. e5", "expected move number 1, not 2"),
            ("0. e5", "expected move number 1, not 0"),
            ("99999999999999999999999. e5", "expected move number 1"),
            ("1.", "expected a move after"),
            ("e5", "expected \"1. <move>\""),
        ] {
            let e = move_of(line, 1).expect_err(line);
            assert!(e.contains(wrong), "{line}: {e}");
        }
        assert_eq!(number("0"), Some(0));
        assert_eq!(number("10"), Some(10));
        for not in ["", "01", "+1", "-1", " 1", "1 ", "1_0"] {
            assert_eq!(number(not), None, "{not:?}");
        }
        assert_eq!(parse_leave("side 01 leaves (resign)"), None);
        assert_eq!(parse_result("side 01 wins (goal)"), None);
    }

    #[test]
    fn headers_unescape() {
        assert_eq!(
            header_of(r#"[Options "{\"a\":\"b\\\\c\"}"]"#),
            Ok(("Options", r#"{"a":"b\\c"}"#.to_string()))
        );
        assert!(header_of("[Game jungle]").is_err());
        // Only \" and \\ escape; no control characters.
        for (line, wrong) in [
            (r#"[Side0 "P\n0"]"#, "escapes"),
            (r#"[Side0 "P\"]"#, "escapes"),
            (r#"[Side0 "P"0"]"#, "expected a header"),
            ("[Side0 \"P\u{0}0\"]", "control"),
            ("[Side0 \"P\u{1b}0\"]", "control"),
        ] {
            let e = header_of(line).expect_err(line);
            assert!(e.contains(wrong), "{line}: {e}");
        }
    }
}
