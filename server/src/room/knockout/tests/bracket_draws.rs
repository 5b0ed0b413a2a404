//! Replays, coin tosses, results that do not fit, the bracket on the wire.

use super::*;

#[test]
fn a_drawn_match_is_replayed_with_the_other_player_first_then_settled_by_the_coin() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut b = bracket(4, &mut rng);
    let [p, q] = [
        b.rounds[0].pairings[0].clone(),
        b.rounds[0].pairings[1].clone(),
    ];
    let [a, c] = p.players;
    assert_eq!((p.first(), p.winner(), p.games.len()), ([a, c], None, 0));

    // A first draw: the same two again, the other one first.
    assert_eq!(
        b.record(p.table, None, true),
        Some(Next::Replay { first: [c, a] })
    );
    let now = b.pairing_at(p.table).unwrap().clone();
    assert_eq!(
        (now.players, now.first(), now.games, now.state),
        (
            [a, c],
            [c, a],
            vec![GameResult::Draw],
            PairingState::Playing
        )
    );
    assert_eq!(b.status, Status::Playing);
    // A second draw: the coin (`true` names players[1]).
    assert_eq!(
        b.record(p.table, None, true),
        Some(Next::CoinToss { winner: c })
    );
    let now = b.pairing_at(p.table).unwrap().clone();
    assert_eq!(now.games, [GameResult::Draw, GameResult::Draw]);
    assert_eq!(
        (now.state, now.winner()),
        (PairingState::CoinToss { winner: c }, Some(c))
    );
    assert_eq!(b.status, Status::Playing, "the other match is still on");

    // The other match: a draw, then the replay is won; the coin is not
    // used.
    let [d, e] = q.players;
    assert_eq!(
        b.record(q.table, None, true),
        Some(Next::Replay { first: [e, d] })
    );
    assert_eq!(
        b.record(q.table, Some(d), true),
        Some(Next::Decided { winner: d })
    );
    let now = b.pairing_at(q.table).unwrap();
    assert_eq!(now.games, [GameResult::Draw, GameResult::Win { winner: d }]);
    assert_eq!(b.status, Status::BetweenRounds);
    assert_eq!(b.current().unwrap().advancing(), [c, d]);

    // The final is drawn twice and the coin falls the other way.
    assert_eq!(b.advance(&mut rng, TableId::new), None);
    let f = b.rounds[1].pairings[0].clone();
    assert_eq!(b.rounds[1].bye, None);
    assert!(matches!(
        b.record(f.table, None, false),
        Some(Next::Replay { .. })
    ));
    assert_eq!(
        b.record(f.table, None, false),
        Some(Next::CoinToss {
            winner: f.players[0]
        })
    );
    assert_eq!(
        b.advance(&mut rng, TableId::new),
        Some(f.players[0]),
        "a coin toss in the final crowns its winner"
    );
}

#[test]
fn results_that_do_not_fit_the_bracket_change_nothing() {
    let mut rng = StdRng::seed_from_u64(3);
    for n in [0, 1, 2, MAX_PLAYERS + 1] {
        let err = Bracket::new(entrants(n), &mut rng, TableId::new).unwrap_err();
        assert!(err.contains("3 to 32"), "{err}");
    }
    let mut b = bracket(5, &mut rng);
    let before = b.clone();
    let round = b.rounds[0].clone();
    let (p, q, bye) = (&round.pairings[0], &round.pairings[1], round.bye.unwrap());
    // A winner who does not play there; a table of no match.
    assert_eq!(b.record(p.table, Some(bye), false), None);
    assert_eq!(b.record(p.table, Some(q.players[0]), false), None);
    assert_eq!(b.record(TableId::new(), Some(p.players[0]), false), None);
    assert_eq!(b.record(TableId::new(), None, false), None);
    // No next round while this one is played.
    assert_eq!(b.advance(&mut rng, TableId::new), None);
    assert_eq!(b, before);
    // A decided match takes no more results.
    let w = p.players[1];
    assert_eq!(
        b.record(p.table, Some(w), false),
        Some(Next::Decided { winner: w })
    );
    let decided = b.clone();
    assert_eq!(b.record(p.table, Some(p.players[0]), false), None);
    assert_eq!(b.record(p.table, None, false), None);
    assert_eq!(b, decided);
    // Between rounds nothing is recorded.
    b.record(q.table, Some(q.players[0]), false).unwrap();
    assert_eq!(b.status, Status::BetweenRounds);
    let between = b.clone();
    assert_eq!(b.record(q.table, Some(q.players[1]), false), None);
    assert_eq!(b, between);
    // Stopped: nothing more, not even the next round.
    b.stop();
    assert_eq!(b.status, Status::Stopped);
    assert!(!b.is_active());
    let stopped = b.clone();
    assert_eq!(b.advance(&mut rng, TableId::new), None);
    assert_eq!(b.record(q.table, None, false), None);
    assert_eq!(b, stopped);
}

#[test]
fn the_bracket_on_the_wire_is_the_documented_one() {
    let table = TableId(Uuid::from_u128(0x0193_a4c2_7e1f_7b3a_9c4d_5e6f_7a8b_9c0d));
    let (m1, m2, m3) = (MemberId(1), MemberId(2), MemberId(3));
    let b = Bracket {
        entrants: vec![
            Entrant {
                member: m1,
                name: "Minh".into(),
            },
            Entrant {
                member: m2,
                name: "Lan".into(),
            },
            Entrant {
                member: m3,
                name: "Khoa".into(),
            },
        ],
        rounds: vec![Round {
            number: 1,
            pairings: vec![Pairing {
                table,
                players: [m3, m1],
                games: vec![GameResult::Draw, GameResult::Win { winner: m1 }],
                state: PairingState::Won { winner: m1 },
            }],
            bye: Some(m2),
        }],
        byes: vec![m2],
        status: Status::BetweenRounds,
    };
    let wire = serde_json::to_value(&b).unwrap();
    // docs/PROTOCOL.md, "Knockout tournaments".
    assert_eq!(
        wire,
        json!({"entrants":[{"member":"m1","name":"Minh"},{"member":"m2","name":"Lan"},{"member":"m3","name":"Khoa"}],
               "rounds":[{"number":1,
                          "pairings":[{"table":"0193a4c2-7e1f-7b3a-9c4d-5e6f7a8b9c0d","players":["m3","m1"],
                                       "games":[{"kind":"draw"},{"kind":"win","winner":"m1"}],
                                       "state":{"kind":"won","winner":"m1"}}],
                          "bye":"m2"}],
               "byes":["m2"],
               "status":{"kind":"between_rounds"}})
    );
    assert_eq!(serde_json::from_value::<Bracket>(wire).unwrap(), b);
    for (status, json) in [
        (Status::Playing, json!({"kind": "playing"})),
        (
            Status::Finished { champion: m1 },
            json!({"kind": "finished", "champion": "m1"}),
        ),
        (Status::Stopped, json!({"kind": "stopped"})),
    ] {
        assert_eq!(serde_json::to_value(status).unwrap(), json);
    }
    assert_eq!(
        serde_json::to_value(PairingState::CoinToss { winner: m3 }).unwrap(),
        json!({"kind": "coin_toss", "winner": "m3"})
    );
    assert_eq!(
        serde_json::to_value(PairingState::Playing).unwrap(),
        json!({"kind": "playing"})
    );
}
