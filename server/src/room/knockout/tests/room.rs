//! Tournaments through the room: scoring, sizes, games, leaving.

use super::*;

#[test]
pub(super) fn a_tournament_of_five_is_scored_3_a_match_10_for_the_champion_and_nothing_for_draws() {
    let mut cup = Cup::new(GameKind::Quoridor, quoridor(2), 6, 5);
    let host = cup.host();
    let watcher = cup.players[5];
    let mut tally = Tally::default();
    let effects = cup.ok(host, start(Order::Random));
    cup.check_round_started(&effects);
    let b = cup.bracket().clone();
    let seated: Vec<MemberId> = cup.players[..5].to_vec();
    assert_eq!(
        b.entrants.iter().map(|e| e.member).collect::<Vec<_>>(),
        seated,
        "everyone seated enters, the watcher does not"
    );
    assert_eq!(b.entrants[0].name, "P1");
    let round1 = cup.round();
    assert_eq!((round1.pairings.len(), round1.bye.is_some()), (2, true));
    assert!(!in_round(&round1).contains(&watcher));
    // The snapshot: both tables, each with its spectators (online members
    // who do not play there: 6 online, 2 at the table).
    let snap = serde_json::to_value(cup.state.snapshot(watcher, "http://x", cup.now)).unwrap();
    assert_eq!(
        snap["room"]["tournament"],
        serde_json::to_value(&b).unwrap()
    );
    let tables = snap["room"]["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 2);
    for (t, p) in tables.iter().zip(&round1.pairings) {
        assert_eq!(t["id"], json!(p.table));
        assert_eq!(t["spectators"], 4);
        assert_eq!(t["match"]["moves"], json!([]));
    }
    assert_eq!(snap["room"]["seats"], 32);

    // Round 1: a replay won by the second player, and a coin toss.
    let last = cup.play_round(&mut tally, |i, _| match i {
        0 => Plan::DrawThenWin(1),
        _ => Plan::Coin,
    });
    tally.check(&cup.state);
    assert_eq!(cup.store.scores.len(), cup.state.scores.len());
    let bye1 = round1.bye.unwrap();
    assert!(
        !cup.state.has_score(bye1),
        "a bye scores nothing (not even a row)"
    );
    // The round is over: the countdown runs.
    let at = cup.countdown_at();
    assert_eq!(at, cup.now + 30_000);
    assert!(sent(&last)
        .iter()
        .any(|e| e["type"] == "autostart" && e["autostart"]["remaining_ms"] == 30_000));
    assert_eq!(
        cup.state.deadlines(),
        [(at, Timer::Countdown)],
        "no other timer between rounds"
    );
    // The countdown starts round 2: three players, a bye for someone else.
    assert!(cup.fire(Timer::Countdown, at - 1).is_empty());
    let effects = cup.fire(Timer::Countdown, at);
    cup.check_round_started(&effects);
    let round2 = cup.round();
    assert_eq!(round2.number, 2);
    let mut expected = cup.bracket().rounds[0].advancing();
    expected.sort();
    assert_eq!(in_round(&round2), expected);
    assert_ne!(round2.bye, Some(bye1));
    cup.play_round(&mut tally, |_, _| Plan::Win(0));
    tally.check(&cup.state);

    // The host starts the final before the countdown ends.
    assert!(cup.state.countdown.is_some());
    let effects = cup.ok(host, start(Order::Random));
    cup.check_round_started(&effects);
    assert_eq!(cup.round().number, 3);
    let last = cup.play_round(&mut tally, |_, _| Plan::Win(1));
    let final_ = cup.round().pairings[0].clone();
    let champion = final_.players[1];
    assert_eq!(cup.bracket().status, Status::Finished { champion });
    tally.add(champion, [CHAMPION_POINTS, 0, 0, 0]);
    tally.check(&cup.state);
    assert_eq!(cup.state.countdown, None);
    assert!(cup.state.deadlines().is_empty());
    // The last bracket sent says who is champion.
    let events = sent(&last);
    let bracket = events
        .iter()
        .rev()
        .find(|e| e["type"] == "tournament")
        .unwrap();
    assert_eq!(
        bracket["tournament"]["status"],
        json!({"kind": "finished", "champion": champion})
    );
    // The final's end sends one scoreboard (with the +10) and one bracket,
    // already finished: no in-between state.
    let kinds: Vec<&str> = events
        .iter()
        .filter_map(|e| e["type"].as_str())
        .filter(|t| matches!(*t, "scores" | "tournament"))
        .collect();
    assert_eq!(kinds, ["scores", "tournament"], "{events:?}");
    // The champion's row: 3 per match won, 10 more.
    let row = cup
        .state
        .scores
        .iter()
        .find(|r| r.person == Person::Member(champion))
        .unwrap();
    assert_eq!(row.points, MATCH_POINTS * row.wins + CHAMPION_POINTS);
    // What was stored is what the room shows.
    let mut stored = cup.store.scores.clone();
    let mut shown = cup.state.scores.clone();
    stored.sort_by_key(|r| r.person.key());
    shown.sort_by_key(|r| r.person.key());
    assert_eq!(stored, shown);
    assert_eq!(cup.store.tournament.as_ref(), Some(cup.bracket()));
    // Every game was stored as finished: 2 + 2 (a replay, a coin toss) in
    // round 1, 1 in round 2, 1 in the final.
    assert_eq!(cup.store.finished.len(), 6);
    assert_eq!(cup.state.games_played, 6);

    // A finished tournament lets the host start a new one; the points
    // already won stay.
    let before = cup.state.scores.clone();
    let effects = cup.ok(host, start(Order::Random));
    cup.check_round_started(&effects);
    assert_eq!(cup.round().number, 1);
    assert_eq!(cup.state.scores, before);
}

#[test]
pub(super) fn tournaments_of_3_to_32_players_are_played_to_a_champion_through_the_room() {
    for n in [3, 4, 5, 7, 8, 16, 32] {
        let mut cup = Cup::new(GameKind::Quoridor, quoridor(2), n, n);
        let host = cup.host();
        let effects = cup.ok(host, start(Order::Random));
        cup.check_round_started(&effects);
        let mut tally = Tally::default();
        let champion =
            cup.play_to_the_end(&mut tally, |round, i, _| match (round as usize + i) % 5 {
                0 => Plan::Win(0),
                1 => Plan::Win(1),
                2 => Plan::DrawThenWin(0),
                3 => Plan::Coin,
                _ => Plan::DrawThenWin(1),
            });
        tally.check(&cup.state);
        let b = cup.bracket().clone();
        check_played(&b, n, champion);
        // Every entrant played at least once (a bye is never the last
        // word); the points add up to 3 a decided match and the bonus.
        assert_eq!(cup.state.scores.len(), n, "{n} players");
        let decided = b
            .rounds
            .iter()
            .flat_map(|r| &r.pairings)
            .filter(|p| matches!(p.state, PairingState::Won { .. }))
            .count() as u32;
        let total: u32 = cup.state.scores.iter().map(|r| r.points).sum();
        assert_eq!(total, MATCH_POINTS * decided + CHAMPION_POINTS);
        assert_eq!(cup.state.tables.len(), 1, "the final's table is on show");
    }
}

#[test]
pub(super) fn a_crossyray_tournament_is_won_over_the_board() {
    let mut cup = Cup::new(GameKind::CrossyRay, json!({"mode": "knockout"}), 4, 4);
    let host = cup.host();
    let effects = cup.ok(host, start(Order::Random));
    cup.check_round_started(&effects);
    let mut tally = Tally::default();
    for round in 1..=2 {
        assert_eq!(cup.round().number, round);
        for p in cup.round().pairings {
            // The first player (side 0) wins: side 1 sends the 4 into its
            // own goal.
            for text in CROSSY_LINE {
                cup.play(p.table, text);
            }
            let m = cup.game(p.table);
            assert_eq!(m.game.outcome().unwrap().winner(), Some(Side(0)));
            assert_eq!(
                cup.pairing(p.table).state,
                PairingState::Won {
                    winner: p.players[0]
                }
            );
            tally.add(p.players[0], [MATCH_POINTS, 1, 0, 0]);
            tally.add(p.players[1], [0, 0, 0, 1]);
        }
        if round == 1 {
            cup.ok(host, start(Order::Random));
        }
    }
    let Status::Finished { champion } = cup.bracket().status else {
        panic!("a champion after the final");
    };
    tally.add(champion, [CHAMPION_POINTS, 0, 0, 0]);
    // The games' own points (1 a win) are not used.
    tally.check(&cup.state);
}

#[test]
pub(super) fn a_player_who_resigns_loses_the_match_even_before_the_game_counts() {
    let mut cup = Cup::new(GameKind::Quoridor, quoridor(2), 3, 3);
    let host = cup.host();
    cup.ok(host, start(Order::Random));
    let p = cup.round().pairings[0].clone();
    let bye = cup.round().bye.unwrap();
    // Resigning before a move: the rules call the game aborted, the
    // tournament a match lost.
    cup.resign(p.table, p.players[0]);
    assert!(matches!(
        cup.game(p.table).game.outcome(),
        Some(Outcome::Aborted { .. })
    ));
    assert_eq!(
        cup.pairing(p.table).state,
        PairingState::Won {
            winner: p.players[1]
        }
    );
    assert_eq!(cup.bracket().status, Status::BetweenRounds);
    let mut tally = Tally::default();
    tally.add(p.players[1], [MATCH_POINTS, 1, 0, 0]);
    tally.add(p.players[0], [0, 0, 0, 1]);
    tally.check(&cup.state);
    // The tournament goes on without the resigner.
    cup.ok(host, start(Order::Random));
    let f = cup.round().pairings[0].clone();
    let mut final_players = f.players.to_vec();
    final_players.sort();
    let mut expected = vec![p.players[1], bye];
    expected.sort();
    assert_eq!(final_players, expected);
    // The player due to move resigns after a move each (a real game).
    cup.play(f.table, "e2");
    cup.play(f.table, "e8");
    let due = cup.game(f.table).due().unwrap().member;
    cup.resign(f.table, due);
    let champion = f.players.into_iter().find(|&x| x != due).unwrap();
    assert_eq!(cup.bracket().status, Status::Finished { champion });
    tally.add(champion, [MATCH_POINTS + CHAMPION_POINTS, 1, 0, 0]);
    tally.add(due, [0, 0, 0, 1]);
    tally.check(&cup.state);
}

#[test]
pub(super) fn a_player_offline_past_the_grace_time_loses_the_match_and_the_tournament_goes_on() {
    let mut cup = Cup::new(GameKind::Quoridor, quoridor(2), 4, 4);
    let host = cup.host();
    cup.ok(host, start(Order::Random));
    let round = cup.round();
    let (p, q) = (round.pairings[0].clone(), round.pairings[1].clone());
    let (stays, gone) = (p.players[0], p.players[1]);
    let grace = config().abandon_after_ms;

    // Back within the grace time: nothing is lost.
    cup.disconnect(gone);
    let left = cup.now;
    assert!(cup
        .state
        .deadlines()
        .contains(&(left + grace, Timer::Abandon(p.table, Side(1)))));
    let i = cup.players.iter().position(|&m| m == gone).unwrap();
    let (again, effects) = join_as(&mut cup.state, greeting(&browser(i), None, None), left + 5);
    cup.store.apply(&effects);
    assert_eq!(again, gone);
    assert!(!cup
        .state
        .deadlines()
        .iter()
        .any(|(_, t)| matches!(t, Timer::Abandon(..))));

    // Gone for good: not a moment before the grace time, then the match.
    cup.disconnect(gone);
    let left = cup.now;
    assert!(cup
        .fire(Timer::Abandon(p.table, Side(1)), left + grace - 1)
        .is_empty());
    assert!(cup.game(p.table).is_running());
    let effects = cup.fire(Timer::Abandon(p.table, Side(1)), left + grace);
    assert!(tags(&effects).contains(&"send:match/end".to_string()));
    assert_eq!(
        cup.pairing(p.table).state,
        PairingState::Won { winner: stays }
    );
    let mut tally = Tally::default();
    tally.add(stays, [MATCH_POINTS, 1, 0, 0]);
    tally.add(gone, [0, 0, 0, 1]);
    tally.check(&cup.state);
    // The other match is still on, and the round with it.
    assert!(cup.game(q.table).is_running());
    assert_eq!(cup.bracket().status, Status::Playing);
    cup.resign(q.table, q.players[1]);
    tally.add(q.players[0], [MATCH_POINTS, 1, 0, 0]);
    tally.add(q.players[1], [0, 0, 0, 1]);
    tally.check(&cup.state);

    // A finalist leaves between rounds: the final starts with them all the
    // same, and they lose it once the grace time since they left is over.
    cup.disconnect(stays);
    let left = cup.now;
    let at = cup.countdown_at();
    let effects = cup.fire(Timer::Countdown, at);
    let f = cup.round().pairings[0].clone();
    assert_eq!(cup.round().number, 2);
    // Everyone sees the finalist away from the final's start.
    let sent = tags(&effects);
    let start = sent.iter().position(|t| t == "send:match/start");
    let away = sent.iter().position(|t| t == "send:away");
    assert!(start.is_some() && away > start, "{sent:?}");
    let side = Side(if cup.sides_at(f.table)[0] == stays {
        0
    } else {
        1
    });
    assert!(cup
        .state
        .deadlines()
        .contains(&(left + grace, Timer::Abandon(f.table, side))));
    cup.fire(Timer::Abandon(f.table, side), left + grace);
    let champion = q.players[0];
    assert_eq!(cup.bracket().status, Status::Finished { champion });
    tally.add(champion, [MATCH_POINTS + CHAMPION_POINTS, 1, 0, 0]);
    tally.add(stays, [0, 0, 0, 1]);
    tally.check(&cup.state);
}

#[test]
pub(super) fn a_tournament_needs_three_to_thirty_two_players_all_online() {
    for seated in 0..=2 {
        let mut cup = Cup::new(GameKind::Quoridor, quoridor(2), 3, seated);
        let host = cup.host();
        assert_eq!(cup.code(host, start(Order::Random)), Code::NotReady);
        assert!(cup.state.tournament.is_none());
    }
    let mut cup = Cup::new(GameKind::Jungle, json!({"mode": "knockout"}), 3, 3);
    let (host, guest) = (cup.host(), cup.players[1]);
    assert_eq!(cup.code(guest, start(Order::Random)), Code::NotHost);
    cup.disconnect(cup.players[2]);
    let refusal = refusal_of(&mut cup, host, start(Order::Random));
    assert_eq!(refusal.code, Code::NotReady);
    assert!(refusal.message.contains("P3"), "{}", refusal.message);
    // Back online: three players, a tournament.
    join_as(&mut cup.state, greeting(&browser(2), None, None), cup.now);
    let effects = cup.ok(host, start(Order::Random));
    cup.check_round_started(&effects);
    // 32 seats, and nobody sits in a 33rd.
    assert_eq!(cup.state.seats(), MAX_PLAYERS);
}
