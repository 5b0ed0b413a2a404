//! One test per rule and Decision of RULES.md §3, named after it, then
//! perft pins and property tests.

use proptest::prelude::*;

use crate::clock::ClockSetting;

use super::*;
use crate::game::{self as api, EndReason, Game, Outcome, Side, TimeControl, TimeoutEffect};

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

/// A game from a list of `(square, letter)` (upper case Blue), `turn` to
/// move. Unless `bare`, a Blue dog on g1 and a Red dog on a9 are added so
/// both sides have something to move.
fn position(pieces: &[(&str, char)], turn: Color, bare: bool) -> Jungle {
    let mut board = Board::empty();
    for &(name, c) in pieces {
        board.put(sq(name), Piece::from_char(c).unwrap());
    }
    if !bare {
        for (name, c) in [("g1", 'D'), ("a9", 'd')] {
            if board.piece_at(sq(name)).is_none() && !pieces.iter().any(|p| p.1 == c) {
                board.put(sq(name), Piece::from_char(c).unwrap());
            }
        }
    }
    let setup = Setup {
        board,
        turn,
        no_capture: 0,
        move_number: 1,
    };
    Jungle::from_position(&setup.to_string()).unwrap()
}

fn blue(pieces: &[(&str, char)]) -> Jungle {
    position(pieces, Color::Blue, false)
}

fn allows(game: &Jungle, text: &str) -> bool {
    let m = mv(text);
    let listed = game.legal_moves().contains(&m);
    let played = game.clone().play(&m).is_ok();
    assert_eq!(listed, played, "legal_moves and play disagree on {text}");
    listed
}

fn play_all(game: &mut Jungle, moves: &[&str]) {
    for text in moves {
        game.play(&mv(text))
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

// ---- movement -------------------------------------------------------------

#[test]
fn animals_move_one_square_orthogonally() {
    let game = blue(&[("d4", 'W')]);
    for to in ["d5", "d3", "c4", "e4"] {
        let ok = allows(&game, &format!("4 d4-{to}"));
        assert_eq!(ok, to == "d5" || to == "d3", "{to}: water is c4 and e4");
    }
    assert!(!allows(&game, "4 d4-c5"), "no diagonal step");
    assert!(!allows(&game, "4 d4-d6"), "no two-square step");
}

#[test]
fn only_rat_may_enter_water() {
    let game = blue(&[("a4", 'C'), ("d5", 'R')]);
    assert!(!allows(&game, "2 a4-b4"));
    assert_eq!(
        game.clone().play(&mv("2 a4-b4")),
        Err(PlayError::Water { role: Role::Cat })
    );
    assert!(allows(&game, "1 d5-c5"));
    assert!(allows(&game, "1 d5-e5"));
}

#[test]
fn start_position_has_24_moves() {
    assert_eq!(Jungle::start().legal_moves().len(), 24);
}

// ---- captures -------------------------------------------------------------

#[test]
fn animal_captures_equal_or_lower_rank_on_land() {
    let game = blue(&[
        ("d4", 'W'),
        ("d5", 'w'),
        ("d3", 'd'),
        ("a4", 'P'),
        ("a5", 't'),
    ]);
    assert!(allows(&game, "4 d4xd5"), "equal rank");
    assert!(allows(&game, "4 d4xd3"), "lower rank");
    assert!(!allows(&game, "5 a4xa5"), "higher rank");
    assert_eq!(
        game.clone().play(&mv("5 a4xa5")),
        Err(PlayError::CannotCapture {
            attacker: Role::Leopard,
            victim: Role::Tiger
        })
    );
}

#[test]
fn rat_captures_elephant() {
    let game = blue(&[("a4", 'R'), ("a5", 'e')]);
    assert!(allows(&game, "1 a4xa5"));
}

#[test]
fn elephant_cannot_capture_rat() {
    let game = blue(&[("a4", 'E'), ("a5", 'r')]);
    assert!(!allows(&game, "8 a4xa5"));
}

#[test]
fn rat_in_water_cannot_capture_elephant_on_land() {
    let game = blue(&[("b4", 'R'), ("a4", 'e')]);
    assert!(!allows(&game, "1 b4xa4"));
}

#[test]
fn rat_in_water_cannot_capture_any_piece_on_land() {
    let game = blue(&[("b4", 'R'), ("a4", 'r'), ("b3", 'c')]);
    assert!(!allows(&game, "1 b4xa4"));
    assert!(!allows(&game, "1 b4xb3"));
}

#[test]
fn rat_in_water_steps_out_only_onto_empty_square() {
    let game = blue(&[("b4", 'R'), ("b3", 'c')]);
    assert!(allows(&game, "1 b4-a4"));
    assert!(!allows(&game, "1 b4xb3"));
}

#[test]
fn land_piece_cannot_capture_rat_in_water() {
    let game = blue(&[("a4", 'R'), ("b4", 'r')]);
    assert!(!allows(&game, "1 a4xb4"), "not even a rat from land");
}

#[test]
fn rat_in_water_captures_enemy_rat_in_water() {
    let game = blue(&[("b4", 'R'), ("b5", 'r')]);
    assert!(allows(&game, "1 b4xb5"));
}

#[test]
fn rat_on_land_captures_like_land_piece() {
    let game = blue(&[("a4", 'R'), ("a5", 'r'), ("a3", 'c')]);
    assert!(allows(&game, "1 a4xa5"));
    assert!(!allows(&game, "1 a4xa3"));
}

// ---- river jumps ----------------------------------------------------------

#[test]
fn lion_and_tiger_jump_across_rivers() {
    let game = blue(&[("b3", 'L'), ("a5", 'T')]);
    assert!(allows(&game, "7 b3-b7"), "vertically over 3 water squares");
    assert!(
        allows(&game, "6 a5-d5"),
        "horizontally over 2 water squares"
    );
    let game = blue(&[("d5", 'L')]);
    assert!(allows(&game, "7 d5-a5"));
    assert!(allows(&game, "7 d5-g5"));
}

#[test]
fn other_animals_cannot_jump() {
    let game = blue(&[("b3", 'E'), ("a5", 'P')]);
    assert!(!allows(&game, "8 b3-b7"));
    assert!(!allows(&game, "5 a5-d5"));
}

#[test]
fn lion_jump_blocked_by_rat_in_river() {
    let game = blue(&[("b3", 'L'), ("b5", 'r')]);
    assert!(!allows(&game, "7 b3-b7"));
    assert_eq!(
        game.clone().play(&mv("7 b3-b7")),
        Err(PlayError::JumpBlocked)
    );
}

#[test]
fn tiger_jump_blocked_by_own_rat_in_river() {
    let game = blue(&[("a5", 'T'), ("c5", 'R')]);
    assert!(!allows(&game, "6 a5-d5"));
    let game = blue(&[("a5", 'T'), ("e5", 'R')]);
    assert!(
        allows(&game, "6 a5-d5"),
        "a rat in the other river does not block"
    );
}

#[test]
fn river_jump_captures_by_rank() {
    let game = blue(&[("a4", 'L'), ("d4", 't')]);
    assert!(allows(&game, "7 a4xd4"));
    let game = blue(&[("a4", 'L'), ("d4", 'e')]);
    assert!(!allows(&game, "7 a4xd4"));
}

// ---- traps ----------------------------------------------------------------

#[test]
fn any_piece_captures_enemy_in_own_trap() {
    let game = blue(&[("d3", 'C'), ("d2", 'e')]);
    assert!(allows(&game, "2 d3xd2"));
    let game = blue(&[("d1", 'e'), ("d2", 'E')]);
    // (a Red piece in Blue's den has already won: checked elsewhere)
    assert!(game.is_over());
}

#[test]
fn elephant_captures_rat_in_own_trap() {
    let game = blue(&[("b1", 'E'), ("c1", 'r')]);
    assert!(allows(&game, "8 b1xc1"));
}

#[test]
fn piece_on_own_trap_is_not_weakened() {
    let game = position(
        &[("d2", 'E'), ("d3", 'c'), ("a1", 'D'), ("g9", 'd')],
        Color::Red,
        true,
    );
    assert!(!allows(&game, "2 d3xd2"));
}

#[test]
fn piece_on_enemy_trap_still_captures_by_its_rank() {
    let game = blue(&[("d8", 'E'), ("d7", 'l')]);
    assert!(allows(&game, "8 d8xd7"));
}

#[test]
fn trap_weakening_only_in_defenders_traps() {
    // A Red elephant on Red's own trap d8 keeps its rank against Blue.
    let game = blue(&[("d7", 'C'), ("d8", 'e')]);
    assert!(!allows(&game, "2 d7xd8"));
}

// ---- dens -----------------------------------------------------------------

#[test]
fn cannot_enter_own_den() {
    let game = blue(&[("c1", 'C')]);
    assert!(!allows(&game, "2 c1-d1"));
    assert_eq!(game.clone().play(&mv("2 c1-d1")), Err(PlayError::OwnDen));
}

#[test]
fn entering_enemy_den_wins() {
    let mut game = blue(&[("d8", 'C')]);
    game.play(&mv("2 d8-d9")).unwrap();
    assert_eq!(game.outcome(), Some(&Outcome::win(0, EndReason::Den)));
    assert_eq!(game.to_move(), None);
    assert!(game.legal_moves().is_empty());
}

#[test]
fn no_legal_move_loses() {
    let mut game = position(&[("a1", 'C'), ("a2", 'e'), ("c1", 'l')], Color::Red, true);
    assert!(!game.is_over());
    game.play(&mv("7 c1-b1")).unwrap();
    assert_eq!(game.outcome(), Some(&Outcome::win(1, EndReason::NoMoves)));
}

// ---- history-aware rules ----------------------------------------------------

#[test]
fn shuttle_limit_forbids_fourth_move() {
    let mut game = Jungle::start();
    play_all(
        &mut game,
        &[
            "8 a3-a4", "8 g7-g6", "8 a4-a3", "8 g6-g7", "8 a3-a4", "8 g7-g6",
        ],
    );
    assert!(!game.is_over());
    assert_eq!(game.shuttle_ban(), Some(mv("8 a4-a3")));
    assert!(!allows(&game, "8 a4-a3"));
    assert_eq!(
        game.clone().play(&mv("8 a4-a3")),
        Err(PlayError::ShuttleLimit {
            banned: mv("8 a4-a3")
        })
    );
    assert!(allows(&game, "8 a4-a5"), "the animal may go elsewhere");
    assert!(allows(&game, "6 a1-a2"), "other animals are free");
    assert_eq!(game.legal_moves().len(), 22, "24 less a3-a4 and the ban");
    // Once Blue moves elsewhere, the ban is lifted.
    play_all(&mut game, &["8 a4-a5", "6 g9-f9"]);
    assert_eq!(game.shuttle_ban(), None);
}

#[test]
fn shuttle_limit_needs_the_same_two_squares() {
    let mut game = Jungle::start();
    play_all(
        &mut game,
        &[
            "8 a3-a4", "8 g7-g6", "8 a4-a5", "8 g6-g7", "8 a5-a4", "8 g7-g6",
        ],
    );
    assert_eq!(game.shuttle_ban(), None);
    assert!(allows(&game, "8 a4-a3"));
}

#[test]
fn shuttle_limit_can_leave_no_moves_and_lose() {
    let mut game = position(
        &[
            ("a1", 'R'),
            ("b1", 'd'),
            ("b2", 'w'),
            ("a3", 'c'),
            ("g9", 'l'),
        ],
        Color::Blue,
        true,
    );
    play_all(
        &mut game,
        &[
            "1 a1-a2", "7 g9-g8", "1 a2-a1", "7 g8-g9", "1 a1-a2", "7 g9-g8",
        ],
    );
    assert_eq!(game.outcome(), Some(&Outcome::win(1, EndReason::NoMoves)));
}

#[test]
fn threefold_repetition_draw() {
    let mut game = Jungle::start();
    play_all(&mut game, &["8 a3-a4", "8 g7-g6", "8 a4-a3", "8 g6-g7"]);
    assert!(!game.is_over(), "twice is not enough");
    play_all(&mut game, &["6 a1-b1", "6 g9-f9", "6 b1-a1"]);
    assert!(!game.is_over());
    game.play(&mv("6 f9-g9")).unwrap();
    assert_eq!(
        game.outcome(),
        Some(&Outcome::Draw {
            reason: EndReason::Repetition
        })
    );
}

#[test]
fn repetition_counts_only_same_side_to_move() {
    // Same board with the other side to move is a different position.
    let a = position(&[("d4", 'W')], Color::Blue, false);
    let b = position(&[("d4", 'W')], Color::Red, false);
    assert_ne!(a.position().hash(), b.position().hash());
}

#[test]
fn hundred_moves_without_capture_draw() {
    let mut game =
        Jungle::from_position("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 98 50").unwrap();
    game.play(&mv("8 a3-a4")).unwrap();
    assert!(!game.is_over());
    game.play(&mv("8 g7-g6")).unwrap();
    assert_eq!(
        game.outcome(),
        Some(&Outcome::Draw {
            reason: EndReason::NoCapture
        })
    );
}

#[test]
fn no_capture_count_includes_both_sides_and_resets_on_capture() {
    let mut game = Jungle::start();
    play_all(
        &mut game,
        &["8 a3-a4", "8 g7-g6", "8 a4-a5", "8 g6-g5", "8 a5-a6"],
    );
    assert_eq!(game.history().no_capture(), 5);
    let mut game = position(&[("d4", 'W'), ("d5", 'c')], Color::Blue, false);
    game.play(&mv("4 d4xd5")).unwrap();
    assert_eq!(game.history().no_capture(), 0);
}

#[test]
fn den_entry_on_hundredth_move_wins() {
    let mut game = Jungle::from_position("2d4/3R3/7/7/7/7/7/7/l6 b 99 80").unwrap();
    game.play(&mv("1 d8-d9")).unwrap();
    assert_eq!(game.outcome().unwrap().reason(), EndReason::Den);
}

// ---- clock, timeout, forfeit ---------------------------------------------------

#[test]
fn clock_presets_are_accepted_and_others_refused() {
    for (m, i) in api::CLOCK_PRESETS {
        let game = Jungle::new(&Options {
            clock: Some(ClockSetting {
                minutes: m,
                increment: i,
            }),
            start: None,
        })
        .unwrap();
        assert_eq!(
            game.time_control(),
            TimeControl::Clock {
                minutes: m,
                increment: i
            }
        );
    }
    let e = Jungle::new(&Options {
        clock: Some(ClockSetting {
            minutes: 4,
            increment: 2,
        }),
        start: None,
    })
    .unwrap_err();
    assert!(e.0.contains("3+2, 5+3, 10+5, 15+10"), "{e}");
    assert_eq!(Jungle::start().time_control(), TimeControl::Unlimited);
}

#[test]
fn bad_start_position_is_refused_at_setup() {
    let e = Jungle::from_position("nonsense").unwrap_err();
    assert!(e.0.contains("4 fields"), "{e}");
}

/// RULES.md, "Position string": the move number is any number from 1 the
/// count holds, and every string a game writes reads back (the count
/// stops at the largest); a number that does not read says why.
#[test]
fn any_move_number_reads_and_every_string_a_game_writes_reads_back() {
    let board = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L";
    let max = MAX_MOVE_NUMBER.to_string();
    for (n, after) in [
        ("1", "2".to_string()),
        ("100000", "100001".to_string()),
        ("100001", "100002".to_string()),
        ("999999", "1000000".to_string()),
        ("4294967295", "4294967296".to_string()),
        (max.as_str(), max.clone()),
    ] {
        let mut game = Jungle::from_position(&format!("{board} r 0 {n}")).unwrap();
        play_all(&mut game, &["1 a7-a6", "8 a3-a4"]);
        let text = game.position_string();
        assert!(text.ends_with(&format!(" r 2 {after}")), "{n}: {text}");
        let again = Jungle::from_position(&text).unwrap();
        assert_eq!(again.position_string(), text);
        let record = game.record();
        let read: Record = record.to_string().parse().unwrap();
        assert_eq!(read, record, "{n}: {record}");
        assert!(record.to_string().starts_with(&format!("{n}... 1 a7-a6 ")));
    }
    let too_big = "18446744073709551616";
    for bad in ["0", "05", "-1", "+3", "x", too_big] {
        let e = Jungle::from_position(&format!("{board} b 0 {bad}")).unwrap_err();
        assert!(
            e.0.contains(&format!(
                "the move number must be a number from 1 to {max}, written without a sign or leading zero, not {bad:?}"
            )),
            "{bad}: {e}"
        );
    }
    let e = format!("{too_big}... 1 a7-a6")
        .parse::<Record>()
        .unwrap_err();
    assert!(e.reason.contains(&format!("from 1 to {max}")), "{e}");
}

#[test]
fn timeout_loses() {
    let mut game = Jungle::start();
    game.play(&mv("8 a3-a4")).unwrap();
    assert_eq!(game.timeout(), TimeoutEffect::Lost);
    assert_eq!(game.outcome(), Some(&Outcome::win(0, EndReason::Timeout)));
}

#[test]
fn forfeit_other_side_wins() {
    let mut game = Jungle::start();
    game.forfeit(Side(0), EndReason::Resign);
    assert_eq!(game.outcome(), Some(&Outcome::win(1, EndReason::Resign)));
    assert_eq!(game.play(&mv("8 a3-a4")), Err(PlayError::GameOver));
}

#[test]
fn players_may_agree_to_a_draw_once() {
    let mut game = Jungle::start();
    assert!(game.draw_by_agreement());
    assert!(game.agree_draw(EndReason::Agreement));
    assert_eq!(
        game.outcome(),
        Some(&Outcome::Draw {
            reason: EndReason::Agreement
        })
    );
    assert_eq!(game.to_move(), None);
    assert!(
        !game.agree_draw(EndReason::Agreement),
        "a finished game cannot be drawn again"
    );
    assert_eq!(game.play(&mv("8 a3-a4")), Err(PlayError::GameOver));
}

#[test]
fn wrong_animal_and_capture_mark_are_explained() {
    let game = Jungle::start();
    assert!(matches!(
        game.clone().play(&mv("7 a3-a4")),
        Err(PlayError::WrongAnimal { .. })
    ));
    assert_eq!(
        game.clone().play(&mv("8 a3xa4")),
        Err(PlayError::CaptureMark { capture: false })
    );
    assert!(matches!(
        game.clone().play(&mv("8 g7-g6")),
        Err(PlayError::NotYourAnimal { .. })
    ));
    assert!(matches!(
        game.clone().play(&mv("8 d4-d5")),
        Err(PlayError::NoAnimal { .. })
    ));
    assert!(matches!(
        game.clone().play(&mv("6 a1-c1")),
        Err(PlayError::Unreachable { .. })
    ));
    assert!(matches!(game.clone().play(&mv("2 b2-a2")), Ok(())));
}

// ---- the view -------------------------------------------------------------

#[test]
fn view_lists_pieces_and_round_trips() {
    let mut game = Jungle::start();
    play_all(&mut game, &["8 a3-a4", "8 g7-g6"]);
    let view = View::from(game.clone());
    assert_eq!(view.now.pieces.len(), 16);
    assert!(view.now.pieces.contains(&PieceView {
        side: Side(0),
        rank: 8,
        square: "a4".into()
    }));
    assert_eq!(view.now.to_move, Some(Side(0)));
    assert_eq!(view.now.ply, 2);
    assert_eq!(view.now.last_move, Some(mv("8 g7-g6")));
    assert_eq!(view.now.position, game.position_string());
    assert_eq!(view.legal_moves.len(), game.legal_moves().len());
    assert_eq!(Jungle::try_from(view).unwrap(), game);
    let mut over = game.clone();
    over.forfeit(Side(1), EndReason::Abandon);
    assert_eq!(Jungle::try_from(View::from(over.clone())).unwrap(), over);
}

// ---- perft --------------------------------------------------------------------

#[test]
fn perft_from_start_is_pinned() {
    let game = Jungle::start();
    let pinned = [1, 24, 576, 12_240, 260_099];
    for (depth, &nodes) in pinned.iter().enumerate() {
        assert_eq!(perft(&game, depth as u32), nodes, "depth {depth}");
    }
}

/// Deeper pins, too slow for a debug run:
/// `cargo test --release -p rules perft_deep -- --ignored`.
/// No history rule can act within 6 plies of the start, so these are plain
/// move-tree counts; an independent brute-force script reproduces depths
/// 1 to 5.
#[test]
#[ignore]
fn perft_deep_from_start_is_pinned() {
    let game = Jungle::start();
    assert_eq!(perft(&game, 5), 5_111_620);
    assert_eq!(perft(&game, 6), 100_453_636);
}

/// Rats in both rivers, jumpers on the banks, pieces on traps; the counts
/// come from an independent brute-force script (no history rules matter
/// within 4 plies).
#[test]
fn perft_of_tactical_position_is_pinned() {
    let board = "4D2/1d1C3/6t/3T3/L1r4/1R1e2l/5P1/3w3/E1p4";
    for (side, pinned) in [
        ("b", [22, 438, 8_347, 162_643]),
        ("r", [22, 439, 8_513, 163_172]),
    ] {
        let game = Jungle::from_position(&format!("{board} {side} 0 1")).unwrap();
        for (i, &nodes) in pinned.iter().enumerate() {
            assert_eq!(perft(&game, i as u32 + 1), nodes, "{side} depth {}", i + 1);
        }
    }
}

#[test]
fn perft_agrees_with_generic_perft() {
    let game = Jungle::start();
    for depth in 0..=3 {
        assert_eq!(
            perft(&game, depth),
            api::perft(&game, depth),
            "depth {depth}"
        );
    }
    let mut game = Jungle::start();
    play_all(
        &mut game,
        &["8 a3-a4", "8 g7-g6", "8 a4-a3", "8 g6-g7", "8 a3-a4"],
    );
    assert_eq!(
        perft(&game, 3),
        api::perft(&game, 3),
        "with shuttle and repetition"
    );
}

#[test]
fn perft_cli_reads_position_flag() {
    let flags =
        crate::cli::Flags::parse(&["--position".into(), Setup::start().to_string()]).unwrap();
    assert_eq!(perft_cli(2, &flags), Ok(576));
    let flags = crate::cli::Flags::parse(&["--size".into(), "3".into()]).unwrap();
    assert!(perft_cli(2, &flags).is_err());
}

// ---- properties -----------------------------------------------------------------

/// Plays the moves picked by `choices` (an index into the legal moves)
/// from the start, stopping when the game ends.
fn random_game(choices: &[u8]) -> Jungle {
    let mut game = Jungle::start();
    for &c in choices {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[c as usize % moves.len()];
        game.play(&m).expect("a generated move is accepted");
    }
    game
}

fn any_move() -> impl Strategy<Value = Move> {
    (1u8..=8, 0u8..63, 0u8..63, any::<bool>()).prop_map(|(r, f, t, c)| {
        Move::new(
            Role::from_rank(r).unwrap(),
            Square::from_index(f).unwrap(),
            Square::from_index(t).unwrap(),
            c,
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn generated_moves_are_accepted_and_round_trip(choices in prop::collection::vec(any::<u8>(), 0..120)) {
        let game = random_game(&choices);
        for m in game.legal_moves() {
            prop_assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
            prop_assert!(game.clone().play(&m).is_ok());
        }
    }

    #[test]
    fn rejected_moves_change_nothing(choices in prop::collection::vec(any::<u8>(), 0..80), tries in prop::collection::vec(any_move(), 1..20)) {
        let game = random_game(&choices);
        for m in tries {
            let mut copy = game.clone();
            if copy.play(&m).is_err() {
                prop_assert_eq!(&copy, &game);
            } else {
                prop_assert!(game.legal_moves().contains(&m));
            }
        }
    }

    #[test]
    fn position_string_and_record_round_trip(choices in prop::collection::vec(any::<u8>(), 0..120)) {
        let game = random_game(&choices);
        let text = game.position_string();
        let setup: Setup = text.parse().unwrap();
        prop_assert_eq!(setup.to_string(), text.clone());
        prop_assert_eq!(setup.position(), game.position().clone());
        let record = game.record();
        let again: Record = record.to_string().parse().unwrap();
        prop_assert_eq!(&again, &record);
        let replayed = Jungle::replay(&Options::default(), &again.moves).unwrap();
        prop_assert_eq!(replayed, game.clone());
        // Continuing from the position string gives the same position.
        let from = Jungle::from_position(&text).unwrap();
        prop_assert_eq!(from.position(), game.position());
    }

    #[test]
    fn make_unmake_restores_position_and_hash(choices in prop::collection::vec(any::<u8>(), 0..120)) {
        let game = random_game(&choices);
        let pos = game.position().clone();
        // The incremental hash equals the hash computed from scratch.
        prop_assert_eq!(Position::new(pos.board().clone(), pos.turn()).hash(), pos.hash());
        for m in game.legal_moves() {
            let mut p = pos.clone();
            let captured = p.make(m);
            prop_assert_eq!(captured.is_some(), m.capture);
            prop_assert_eq!(Position::new(p.board().clone(), p.turn()).hash(), p.hash());
            p.unmake(m, captured);
            prop_assert_eq!(&p, &pos);
        }
    }

    #[test]
    fn view_round_trips(choices in prop::collection::vec(any::<u8>(), 0..60)) {
        let game = random_game(&choices);
        prop_assert_eq!(Jungle::try_from(View::from(game.clone())).unwrap(), game);
    }
}

// ---- JSON (the wire form) ---------------------------------------------------------

#[test]
fn json_view_has_the_documented_fields() {
    let mut game = Jungle::start();
    play_all(&mut game, &["8 a3-a4"]);
    let json = serde_json::to_value(&game).unwrap();
    let object = json.as_object().unwrap();
    let mut keys: Vec<&str> = object.keys().map(|k| k.as_str()).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "last_move",
            "legal_moves",
            "moves",
            "no_capture",
            "options",
            "outcome",
            "pieces",
            "ply",
            "position",
            "shuttle_ban",
            "start",
            "to_move",
        ]
    );
    assert_eq!(json["last_move"], "8 a3-a4");
    assert_eq!(json["to_move"], 1);
    assert_eq!(json["ply"], 1);
    assert_eq!(json["outcome"], serde_json::Value::Null);
    assert!(json["pieces"]
        .as_array()
        .unwrap()
        .contains(&serde_json::json!({"side": 0, "rank": 8, "square": "a4"})));
    let back: Jungle = serde_json::from_value(json).unwrap();
    assert_eq!(back, game);
}

#[test]
fn json_outcome_and_options_use_their_wire_names() {
    let mut game = Jungle::new(&Options {
        clock: Some(ClockSetting {
            minutes: 5,
            increment: 3,
        }),
        start: None,
    })
    .unwrap();
    game.timeout();
    let json = serde_json::to_value(&game).unwrap();
    assert_eq!(
        json["outcome"],
        serde_json::json!({"kind": "win", "winner": 1, "reason": "timeout"})
    );
    assert_eq!(
        json["options"],
        serde_json::json!({"clock": {"minutes": 5, "increment": 3}, "start": null})
    );
    let options: Options = serde_json::from_str("{}").unwrap();
    assert_eq!(options, Options::default());
    let options: Options = serde_json::from_str(r#"{"clock": [3, 2]}"#).unwrap();
    assert_eq!(options.clock.map(ClockSetting::pair), Some((3, 2)));
    let unknown = serde_json::from_str::<Options>(r#"{"clok": [3, 2]}"#).unwrap_err();
    let [a, b] = Options::FIELDS;
    assert_eq!(
        unknown.to_string(),
        format!("unknown field `clok`, expected `{a}` or `{b}` at line 1 column 7")
    );
    let start = serde_json::from_str::<Options>(r#"{"start": 5}"#).unwrap_err();
    assert_eq!(
        start.to_string(),
        "start must be a position string or null, not 5"
    );
    let options: Options = serde_json::from_str(r#"{"start": null, "clock": null}"#).unwrap();
    assert_eq!(options, Options::default());
    let back: Jungle = serde_json::from_value(json).unwrap();
    assert_eq!(back, game);
}

#[test]
fn json_moves_are_notation_strings() {
    let m = mv("7 a4xd4");
    assert_eq!(serde_json::to_string(&m).unwrap(), r#""7 a4xd4""#);
    assert_eq!(serde_json::from_str::<Move>(r#""7 a4xd4""#).unwrap(), m);
    assert!(serde_json::from_str::<Move>(r#""7 a4?d4""#).is_err());
}

#[test]
fn json_with_an_illegal_move_is_refused() {
    let json = serde_json::json!({"moves": ["8 a3-a4", "8 a4-a5"]});
    let e = serde_json::from_value::<Jungle>(json).unwrap_err();
    assert!(e.to_string().contains("move 2"), "{e}");
}
