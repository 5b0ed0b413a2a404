//! A tournament brought back from its writes.

use super::*;

/// A [`Store`] holding what `saved` holds.
pub(super) fn store_of(saved: SavedRoom) -> Store {
    Store {
        room: saved.room,
        members: saved.members,
        scores: saved.scores,
        chat: saved.chat,
        live: saved.live,
        finished: Vec::new(),
        tournament: saved.tournament,
    }
}

/// `b`, restored, has `a`'s bracket, scoreboard, members and tables, and
/// each table the same game: id, players, moves, log, position.
pub(super) fn assert_same_tournament(a: &RoomState, b: &RoomState) {
    assert_eq!(b.tournament, a.tournament, "the bracket");
    assert_eq!(b.options, a.options);
    assert_eq!(b.games_played, a.games_played);
    let rows = |s: &RoomState| s.members.iter().map(Member::row).collect::<Vec<_>>();
    assert_eq!(rows(b), rows(a));
    let mut scores = (a.scores.clone(), b.scores.clone());
    scores.0.sort_by_key(|r| r.person.key());
    scores.1.sort_by_key(|r| r.person.key());
    assert_eq!(scores.1, scores.0, "the scoreboard");
    let ids = |s: &RoomState| s.tables.iter().map(|t| t.id).collect::<Vec<_>>();
    assert_eq!(ids(b), ids(a), "the tables");
    for (ta, tb) in a.tables.iter().zip(&b.tables) {
        let (ma, mb) = (ta.current.as_ref().unwrap(), tb.current.as_ref().unwrap());
        assert_eq!((mb.id, mb.number, mb.order), (ma.id, ma.number, ma.order));
        assert_eq!(
            (&mb.sides, &mb.turn, &mb.gone),
            (&ma.sides, &ma.turn, &ma.gone)
        );
        assert_eq!(
            (&mb.moves, &mb.move_sides, mb.entries),
            (&ma.moves, &ma.move_sides, ma.entries)
        );
        assert_eq!(
            serde_json::to_value(&mb.game).unwrap(),
            serde_json::to_value(&ma.game).unwrap(),
            "the position"
        );
        assert_eq!(mb.is_running(), ma.is_running());
    }
}

#[test]
pub(super) fn a_room_restored_in_the_middle_of_round_2_has_the_same_bracket_tables_and_games() {
    // 7 players: round 1 has three matches and a bye, round 2 two
    // matches, round 3 the final.
    let mut cup = Cup::new(GameKind::Quoridor, quoridor(2), 7, 7);
    let host = cup.host();
    cup.ok(host, start(Order::Random));
    let mut tally = Tally::default();
    cup.play_round(&mut tally, |i, _| match i {
        0 => Plan::DrawThenWin(1),
        1 => Plan::Coin,
        _ => Plan::Win(0),
    });
    let at = cup.countdown_at();
    cup.fire(Timer::Countdown, at);
    let round2 = cup.round();
    assert_eq!((round2.number, round2.pairings.len()), (2, 2));
    // Round 2 under way: a draw and a move into the replay at the first
    // table, one move at the second.
    let (t0, t1) = (round2.pairings[0].table, round2.pairings[1].table);
    cup.draw(t0);
    cup.play(t0, "e2");
    cup.play(t1, "e2");
    assert_eq!(cup.pairing(t0).games, [GameResult::Draw]);

    let later = cup.now + 3_600_000;
    let (back, effects) = RoomState::restore(cup.store.saved(), config(), later);
    assert!(effects.is_empty(), "nobody to think for");
    assert_same_tournament(&cup.state, &back);
    for t in [t0, t1] {
        let m = back.tables.iter().find(|x| x.id == t).unwrap();
        assert_eq!(m.current.as_ref().unwrap().moves, ["e2"]);
    }
    assert!(back.tables.iter().all(|t| t.is_running()));
    // The snapshot shows the same bracket and tables.
    let snap = |s: &RoomState, now| {
        let v = serde_json::to_value(s.snapshot(host, "http://x", now)).unwrap();
        let tables: Vec<Value> = v["room"]["tables"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                json!([
                    t["id"],
                    t["match"]["id"],
                    t["match"]["moves"],
                    t["match"]["teams"]
                ])
            })
            .collect();
        (v["room"]["tournament"].clone(), tables)
    };
    assert_eq!(snap(&back, later), snap(&cup.state, cup.now));

    // Everyone comes back as themselves; the round goes on in the
    // restored room as it would have in the room that stored it.
    let mut restored = Cup {
        state: back,
        store: store_of(cup.store.saved()),
        players: cup.players.clone(),
        now: later,
    };
    for (i, &id) in cup.players.iter().enumerate() {
        let (again, effects) = join_as(
            &mut restored.state,
            greeting(&browser(i), None, None),
            later,
        );
        restored.store.apply(&effects);
        assert_eq!(again, id);
    }
    let mut restored_tally = tally.clone();
    for (c, t) in [(&mut cup, &mut tally), (&mut restored, &mut restored_tally)] {
        c.play(t0, "e8");
        c.play(t1, "e8");
        let (p0, p1) = (c.pairing(t0), c.pairing(t1));
        c.resign(t0, p0.players[1]);
        t.add(p0.players[0], [MATCH_POINTS, 1, 0, 0]);
        t.add(p0.players[1], [0, 0, 0, 1]);
        c.resign(t1, p1.players[0]);
        t.add(p1.players[1], [MATCH_POINTS, 1, 0, 0]);
        t.add(p1.players[0], [0, 0, 0, 1]);
        t.check(&c.state);
        assert_eq!(c.bracket().status, Status::BetweenRounds);
    }
    assert_eq!(restored.state.tournament, cup.state.tournament);
    // And on to a champion.
    let at = restored.countdown_at();
    let effects = restored.fire(Timer::Countdown, at);
    restored.check_round_started(&effects);
    let champion = restored.play_to_the_end(&mut restored_tally, |_, _, _| Plan::Win(0));
    restored_tally.check(&restored.state);
    check_played(restored.bracket(), 7, champion);
}

#[test]
pub(super) fn a_room_restored_between_rounds_waits_for_the_hosts_start() {
    let mut cup = Cup::new(GameKind::Quoridor, quoridor(2), 5, 5);
    let host = cup.host();
    cup.ok(host, start(Order::Random));
    let mut tally = Tally::default();
    cup.play_round(&mut tally, |_, _| Plan::Win(0));
    cup.countdown_at();
    let later = cup.now + 3_600_000;
    let (back, _) = RoomState::restore(cup.store.saved(), config(), later);
    assert_same_tournament(&cup.state, &back);
    assert!(back.tables.iter().all(|t| !t.is_running()));
    let mut restored = Cup {
        state: back,
        store: store_of(cup.store.saved()),
        players: cup.players.clone(),
        now: later,
    };
    for i in 0..5 {
        let (_, effects) = join_as(
            &mut restored.state,
            greeting(&browser(i), None, None),
            later,
        );
        restored.store.apply(&effects);
    }
    // No countdown comes back (its pause would be forgotten, and anyone
    // loading the room would start the round): the host starts round 2.
    assert_eq!(restored.bracket().status, Status::BetweenRounds);
    assert!(
        restored.state.countdown.is_none(),
        "{:?}",
        restored.state.countdown
    );
    let host = restored.players[0];
    let effects = restored.ok(host, start(Order::Random));
    restored.check_round_started(&effects);
    assert_eq!(restored.round().number, 2);
    let champion = restored.play_to_the_end(&mut tally, |_, _, _| Plan::Win(1));
    tally.check(&restored.state);
    check_played(restored.bracket(), 5, champion);
}
