//! The computer as an entrant; entrants fixed while the tournament goes on.

use super::*;

/// Two people in seats 0 and 1, the computer in seat 2.
pub(super) fn jungle_with_the_computer() -> Cup {
    with_the_computer(GameKind::Jungle)
}

/// Two people in seats 0 and 1, the computer in seat 2, playing `kind`.
fn with_the_computer(kind: GameKind) -> Cup {
    let mut cup = Cup::new(kind, json!({"mode": "knockout"}), 2, 2);
    let host = cup.host();
    cup.ok(
        host,
        Command::Computer(cmd::Computer {
            seat: 2,
            level: Some(Level::Beginner),
        }),
    );
    cup
}

#[test]
pub(super) fn the_computer_enters_and_plays_its_matches() {
    // Neither game can end within the four turns each match is played.
    for kind in [GameKind::Jungle, GameKind::Quoridor] {
        the_computer_plays_a_tournament_of(kind);
    }
}

fn the_computer_plays_a_tournament_of(kind: GameKind) {
    let mut cup = with_the_computer(kind);
    let (host, bot) = (cup.host(), cup.computer());
    let mut started = cup.ok(host, start(Order::Random));
    cup.check_round_started(&started);
    assert_eq!(cup.bracket().entrants.len(), 3);
    assert_eq!(cup.bracket().name(bot), Level::Beginner.display_name());
    let mut tally = Tally::default();
    loop {
        for p in cup.round().pairings {
            if p.players.contains(&bot) {
                let side = if cup.sides_at(p.table)[0] == bot {
                    0
                } else {
                    1
                };
                let m = cup.game(p.table);
                assert_eq!(m.sides[side][0].computer, Some(Level::Beginner));
                if side == 0 {
                    // It moves first: its search starts with the game.
                    let t = cup
                        .state
                        .tables
                        .iter()
                        .position(|t| t.id == p.table)
                        .unwrap();
                    assert!(cup.state.tables[t].thinking.is_some());
                    assert!(tags(&started).contains(&"think".to_string()));
                }
                // A few turns each, then the person resigns.
                for _ in 0..4 {
                    cup.turn(p.table);
                }
                let m = cup.game(p.table);
                assert_eq!(m.moves.len(), 4);
                assert_eq!(m.move_sides.iter().filter(|s| s.index() == side).count(), 2);
            }
            let person = if p.players[1] == bot {
                p.players[0]
            } else {
                p.players[1]
            };
            let winner = p.players.into_iter().find(|&x| x != person).unwrap();
            cup.resign(p.table, person);
            tally.add(winner, [MATCH_POINTS, 1, 0, 0]);
            tally.add(person, [0, 0, 0, 1]);
        }
        if let Status::Finished { champion } = cup.bracket().status {
            assert_eq!(champion, bot, "every person resigned");
            tally.add(champion, [CHAMPION_POINTS, 0, 0, 0]);
            break;
        }
        started = cup.ok(host, start(Order::Random));
        cup.check_round_started(&started);
    }
    tally.check(&cup.state);
}

#[test]
pub(super) fn a_computer_in_the_tournament_cannot_be_taken_out_between_rounds() {
    let mut cup = jungle_with_the_computer();
    let (host, bot) = (cup.host(), cup.computer());
    cup.ok(host, start(Order::Random));
    cup.humans_resign();
    assert_eq!(cup.bracket().status, Status::BetweenRounds);
    assert!(cup.bracket().current().unwrap().advancing().contains(&bot));
    let out = Command::Computer(cmd::Computer {
        seat: 2,
        level: None,
    });
    cup.now += 10;
    match cup.state.apply(host, out, cup.now) {
        // Refused while the tournament goes on, as `options` is.
        Err(refusal) => assert_eq!(refusal.code, Code::GameRunning),
        // Or taken out, and then its matches must still end by themselves.
        Ok(effects) => {
            cup.store.apply(&effects);
            assert!(cup.state.member(bot).is_none(), "the computer is gone");
            cup.ok(host, start(Order::Random));
            let f = cup.round().pairings[0].clone();
            assert!(f.players.contains(&bot));
            let ends = cup
                .state
                .deadlines()
                .into_iter()
                .any(|(_, t)| matches!(t, Timer::Abandon(id, _) if id == f.table));
            assert!(
                ends,
                "the final against the computer that left can never end: deadlines {:?}, thinking {:?}",
                cup.state.deadlines(),
                cup.state.tables[0].thinking
            );
        }
    }
}

#[test]
pub(super) fn an_entrant_is_never_let_go_while_the_tournament_goes_on() {
    let room_full = RoomConfig {
        max_members: 5,
        ..config()
    };
    // A round-1 bye for someone other than the host.
    let mut cup = (0..200)
        .map(|_| {
            let mut cup = Cup::with_config(
                GameKind::CrossyRay,
                json!({"mode": "knockout"}),
                5,
                5,
                room_full.clone(),
            );
            let host = cup.host();
            cup.ok(host, start(Order::Random));
            cup
        })
        .find(|cup| cup.round().bye != Some(cup.host()))
        .expect("a bye for a guest");
    let host = cup.host();
    let bye = cup.round().bye.unwrap();
    for p in cup.round().pairings {
        for text in CROSSY_LINE {
            cup.play(p.table, text);
        }
    }
    assert_eq!(cup.bracket().status, Status::BetweenRounds);
    // The bye stands up between rounds and leaves; a newcomer arrives in
    // the full room.
    cup.now += 10;
    match cup.state.apply(bye, Command::Stand, cup.now) {
        Err(refusal) => {
            // Entrants keep their seats until the tournament ends: fine.
            assert_eq!(refusal.code, Code::GameRunning);
            return;
        }
        Ok(effects) => cup.store.apply(&effects),
    }
    cup.disconnect(bye);
    let _ = cup
        .state
        .hello(greeting(&token(99), Some("Newcomer"), None), cup.now);
    // Round 2: the three who advanced; the bye of round 1 plays.
    cup.ok(host, start(Order::Random));
    let p = cup.round().pairings[0].clone();
    assert!(p.players.contains(&bye));
    let side = Side(if cup.sides_at(p.table)[0] == bye {
        0
    } else {
        1
    });
    let grace = config().abandon_after_ms;
    assert!(
        cup.state
            .deadlines()
            .iter()
            .any(|&(at, t)| t == Timer::Abandon(p.table, side) && at <= cup.now + grace),
        "{bye} is gone ({}), yet their match has no abandon timer: deadlines {:?}",
        if cup.state.member(bye).is_none() {
            "let go by the newcomer's hello"
        } else {
            "offline"
        },
        cup.state.deadlines()
    );
}

#[test]
pub(super) fn a_match_between_computers_searches_among_computers_only() {
    // One person and three computers: two matches, one of them between
    // two computers, whatever the draw.
    let mut cup = Cup::new(GameKind::Jungle, json!({"mode": "knockout"}), 1, 1);
    let host = cup.host();
    for seat in 1..4 {
        cup.ok(
            host,
            Command::Computer(cmd::Computer {
                seat,
                level: Some(Level::Beginner),
            }),
        );
    }
    let started = cup.ok(host, start(Order::Random));
    let mut flags = Vec::new();
    for e in &started {
        if let Effect::Think {
            table,
            among_computers,
            ..
        } = e
        {
            let m = cup.game(*table);
            let computers = m.sides.iter().flatten().all(|p| p.computer.is_some());
            assert_eq!(*among_computers, computers);
            flags.push(*among_computers);
        }
    }
    assert!(flags.contains(&true), "the computers' match: {flags:?}");
}
