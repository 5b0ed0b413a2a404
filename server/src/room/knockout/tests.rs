//! Knockout tournaments without a socket. First the bracket as pure data,
//! drawn with a seeded generator: every size played to a champion, byes,
//! replays, coin tosses, results that do not fit, the bracket on the
//! wire. Then the room running tournaments through `apply`, `fire`,
//! `disconnect` and `restore`: the scoreboard (3 a match, 10 for the
//! champion, nothing for draws, coin tosses and byes), resignations and
//! absences, refusals that change nothing, and a room brought back from
//! its writes in the middle of round 2.

use std::collections::{BTreeMap, HashSet};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rules::{Level, Outcome, Side};
use serde_json::{json, Value};
use uuid::Uuid;

use super::bracket::{
    Bracket, Entrant, GameResult, Next, Pairing, PairingState, Round, Status, MAX_PLAYERS,
    MIN_PLAYERS,
};
use super::{CHAMPION_POINTS, MATCH_POINTS};
use crate::games::GameKind;
use crate::protocol::{Code, Command, Order};
use crate::room::tests::{
    check_versions, code, config, greeting, join_as, ok, options, room_with, sent, sit, start,
    tags, token, Store, CROSSY_LINE, HOST,
};
use crate::room::{
    Countdown, Effect, Match, Member, MemberId, Person, RoomConfig, RoomState, TableId, Timer,
};
use crate::store::records::SavedRoom;

// ---------------------------------------------------------------------
// The bracket as pure data.

fn entrants(n: usize) -> Vec<Entrant> {
    (1..=n as u32)
        .map(|i| Entrant {
            member: MemberId(i),
            name: format!("P{i}"),
        })
        .collect()
}

fn bracket(n: usize, rng: &mut StdRng) -> Bracket {
    Bracket::new(entrants(n), rng, TableId::new).expect("a bracket")
}

/// Table ids 1, 2, 3… so that two brackets drawn alike compare equal.
fn counted_tables() -> impl FnMut() -> TableId {
    let mut n = 0u128;
    move || {
        n += 1;
        TableId(Uuid::from_u128(n))
    }
}

/// Everyone in `round` (its matches and its bye), sorted.
fn in_round(round: &Round) -> Vec<MemberId> {
    let mut all: Vec<MemberId> = round
        .pairings
        .iter()
        .flat_map(|p| p.players)
        .chain(round.bye)
        .collect();
    all.sort();
    all
}

/// How many rounds `n` players need: each halves the field, rounding up.
fn rounds_for(n: usize) -> usize {
    let (mut left, mut rounds) = (n, 0);
    while left > 1 {
        left = left.div_ceil(2);
        rounds += 1;
    }
    rounds
}

/// Plays every game of `b` to the end, each game's result chosen by
/// `result` (`None`: a draw) and the coin drawn from `rng`, checking what
/// the bracket answers to each; returns the champion.
fn play_out(
    b: &mut Bracket,
    rng: &mut StdRng,
    mut result: impl FnMut(&Bracket, &Pairing, &mut StdRng) -> Option<MemberId>,
) -> MemberId {
    loop {
        while b.status == Status::Playing {
            let pairing = b
                .current()
                .expect("a round")
                .pairings
                .iter()
                .find(|p| p.state == PairingState::Playing)
                .expect("a match still on while the round is played")
                .clone();
            let winner = result(b, &pairing, rng);
            let coin: bool = rng.random();
            let next = b
                .record(pairing.table, winner, coin)
                .expect("a result that fits");
            let after = b.pairing_at(pairing.table).expect("the match").clone();
            match (winner, next) {
                (Some(w), Next::Decided { winner }) => {
                    assert_eq!(w, winner);
                    assert_eq!(after.state, PairingState::Won { winner });
                }
                (None, Next::Replay { first }) => {
                    assert!(pairing.games.is_empty(), "only a first draw is replayed");
                    assert_eq!(first, [pairing.players[1], pairing.players[0]]);
                    assert_eq!(after.first(), first);
                    assert_eq!(after.state, PairingState::Playing);
                }
                (None, Next::CoinToss { winner }) => {
                    assert_eq!(pairing.games, [GameResult::Draw]);
                    assert_eq!(winner, pairing.players[usize::from(coin)]);
                    assert_eq!(after.state, PairingState::CoinToss { winner });
                }
                other => panic!("{other:?} after {:?}", pairing.games),
            }
        }
        assert_eq!(b.status, Status::BetweenRounds);
        if let Some(champion) = b.advance(rng, TableId::new) {
            assert_eq!(b.status, Status::Finished { champion });
            assert!(!b.is_active());
            return champion;
        }
        assert_eq!(b.status, Status::Playing);
    }
}

/// Everything a finished bracket of `n` entrants must be: each round
/// holds exactly those who advanced from the one before, a bye exactly
/// when their number is odd, a fresh table per match, results that
/// agree with the games, nobody's second bye while someone in the round
/// had none, and one champion who never lost.
fn check_played(b: &Bracket, n: usize, champion: MemberId) {
    let mut field: Vec<MemberId> = entrants(n).iter().map(|e| e.member).collect();
    let mut tables = HashSet::new();
    let mut byes: Vec<MemberId> = Vec::new();
    for (i, round) in b.rounds.iter().enumerate() {
        assert_eq!(round.number, i as u32 + 1);
        let mut expected = field.clone();
        expected.sort();
        assert_eq!(in_round(round), expected, "round {}", round.number);
        assert_eq!(round.bye.is_some(), field.len() % 2 == 1);
        assert_eq!(round.pairings.len(), field.len() / 2);
        if let Some(bye) = round.bye {
            if byes.contains(&bye) {
                assert!(
                    in_round(round).iter().all(|p| byes.contains(p)),
                    "{bye} has a second bye in round {} while someone there had none",
                    round.number
                );
            }
            byes.push(bye);
        }
        for p in &round.pairings {
            assert!(tables.insert(p.table), "a fresh table for every match");
            assert_ne!(p.players[0], p.players[1]);
            match p.state {
                PairingState::Won { winner } => {
                    assert!(p.players.contains(&winner));
                    assert!((1..=2).contains(&p.games.len()));
                    assert_eq!(p.games.last(), Some(&GameResult::Win { winner }));
                    assert!(p.games[..p.games.len() - 1]
                        .iter()
                        .all(|g| *g == GameResult::Draw));
                }
                PairingState::CoinToss { winner } => {
                    assert!(p.players.contains(&winner));
                    assert_eq!(p.games, [GameResult::Draw, GameResult::Draw]);
                }
                PairingState::Playing => panic!("a match left unplayed: {p:?}"),
            }
        }
        assert!(round.is_over());
        field = round.advancing();
    }
    assert_eq!(b.rounds.len(), rounds_for(n), "{n} players");
    assert_eq!(field, [champion]);
    assert_eq!(b.byes, byes);
    let last = b.current().expect("a final");
    assert_eq!((last.pairings.len(), last.bye), (1, None), "the final");
    assert_eq!(last.pairings[0].winner(), Some(champion));
    assert_eq!(b.status, Status::Finished { champion });
    for p in b.rounds.iter().flat_map(|r| &r.pairings) {
        if p.players.contains(&champion) {
            assert_eq!(p.winner(), Some(champion), "the champion never lost");
        }
    }
}

/// Random results: about a third of the games drawn.
fn any_result(_: &Bracket, p: &Pairing, rng: &mut StdRng) -> Option<MemberId> {
    if rng.random_bool(0.35) {
        None
    } else {
        Some(p.players[rng.random_range(0..2)])
    }
}

#[test]
fn brackets_of_3_4_5_7_8_16_and_32_players_are_played_to_one_champion() {
    for n in [3, 4, 5, 7, 8, 16, 32] {
        for seed in 0..40u64 {
            let mut rng = StdRng::seed_from_u64(seed * 1_000 + n as u64);
            let mut b = bracket(n, &mut rng);
            assert_eq!(b.entrants, entrants(n));
            assert_eq!(b.status, Status::Playing);
            assert!(b.is_active());
            assert_eq!(b.rounds.len(), 1);
            let champion = play_out(&mut b, &mut rng, any_result);
            check_played(&b, n, champion);
        }
    }
    // And every other size, fewer times.
    for n in MIN_PLAYERS..=MAX_PLAYERS {
        for seed in 0..4u64 {
            let mut rng = StdRng::seed_from_u64(seed * 7_919 + n as u64);
            let mut b = bracket(n, &mut rng);
            let champion = play_out(&mut b, &mut rng, any_result);
            check_played(&b, n, champion);
        }
    }
}

#[test]
fn the_draw_is_random_and_the_same_seed_draws_the_same_bracket() {
    let draw = |seed: u64| {
        let mut rng = StdRng::seed_from_u64(seed);
        Bracket::new(entrants(9), &mut rng, counted_tables()).unwrap()
    };
    assert_eq!(draw(11), draw(11));
    // Over many seeds everyone has the first bye and everyone moves first
    // somewhere: pairs, order and byes are drawn, not taken in seat order.
    let mut had_bye = HashSet::new();
    let mut moved_first = HashSet::new();
    let mut different = false;
    for seed in 0..200 {
        let b = draw(seed);
        different |= b != draw(0);
        let round = &b.rounds[0];
        had_bye.insert(round.bye.expect("9 players: a bye"));
        moved_first.extend(round.pairings.iter().map(|p| p.players[0]));
    }
    assert!(different);
    assert_eq!(had_bye.len(), 9, "{had_bye:?}");
    assert_eq!(moved_first.len(), 9, "{moved_first:?}");
}

#[test]
fn nobody_has_a_second_bye_while_someone_in_the_round_has_had_none() {
    // 5 players: round 2 (three who advance) has a bye for one of the two
    // who had none, whoever won round 1 (RULES.md §4, the example).
    for seed in 0..100 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut b = bracket(5, &mut rng);
        let first_bye = b.rounds[0].bye.expect("a bye in round 1");
        while b.status == Status::Playing {
            let p = b.rounds[0]
                .pairings
                .iter()
                .find(|p| p.state == PairingState::Playing)
                .unwrap()
                .clone();
            let winner = p.players[rng.random_range(0..2)];
            b.record(p.table, Some(winner), false).unwrap();
        }
        assert_eq!(b.advance(&mut rng, TableId::new), None);
        let round = &b.rounds[1];
        assert_eq!((round.number, round.pairings.len()), (2, 1));
        assert!(in_round(round).contains(&first_bye), "a bye advances");
        let second = round.bye.expect("three players: a bye");
        assert_ne!(second, first_bye, "seed {seed}");
        assert_eq!(b.byes, [first_bye, second]);
    }
    // 17 players whose byes keep winning: 17 → 9 → 5 → 3, and the three
    // left may all have had a bye. Only then does someone get a second.
    let mut seen = false;
    for seed in 0..300 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut b = bracket(17, &mut rng);
        let champion = play_out(&mut b, &mut rng, |b, p, _| {
            Some(
                p.players
                    .into_iter()
                    .find(|x| b.byes.contains(x))
                    .unwrap_or(p.players[0]),
            )
        });
        check_played(&b, 17, champion);
        let mut before: Vec<MemberId> = Vec::new();
        for round in &b.rounds {
            let field = in_round(round);
            if field.len() % 2 == 1 && field.iter().all(|p| before.contains(p)) {
                let bye = round.bye.expect("an odd field");
                assert!(before.contains(&bye));
                seen = true;
            }
            before.extend(round.bye);
        }
        if seen {
            break;
        }
    }
    assert!(
        seen,
        "no seed left a round of players who had all had a bye"
    );
}

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

// ---------------------------------------------------------------------
// The room running a tournament.

/// Quoridor knockout options; a game is drawn once each pawn made
/// `limit` moves.
fn quoridor(limit: u16) -> Value {
    json!({"mode": "knockout", "move_limit": limit})
}

fn browser(i: usize) -> String {
    if i == 0 {
        HOST.to_string()
    } else {
        token(i)
    }
}

/// A knockout room whose every write goes to a [`Store`]; `players[0]`
/// is the host. Commands are applied 10 ms apart.
struct Cup {
    state: RoomState,
    store: Store,
    players: Vec<MemberId>,
    now: u64,
}

/// How a match is to go (a win: the loser resigns after a move each).
#[derive(Clone, Copy, Debug)]
enum Plan {
    /// `players[i]` wins the first game.
    Win(usize),
    /// A draw, then `players[i]` wins the replay.
    DrawThenWin(usize),
    /// Two draws: the coin decides.
    Coin,
}

/// The scoreboard as the rules make it: per member, points, wins, draws
/// and losses.
#[derive(Clone, Debug, Default)]
struct Tally(BTreeMap<MemberId, [u32; 4]>);

impl Tally {
    fn add(&mut self, member: MemberId, row: [u32; 4]) {
        let had = self.0.entry(member).or_default();
        for (h, r) in had.iter_mut().zip(row) {
            *h += r;
        }
    }

    /// The room's scoreboard (its rows and the view) is this one.
    fn check(&self, state: &RoomState) {
        let rows: BTreeMap<MemberId, [u32; 4]> = state
            .scores
            .iter()
            .map(|r| match r.person {
                Person::Member(m) => (m, [r.points, r.wins, r.draws, r.losses]),
                Person::Account(_) => panic!("no accounts here"),
            })
            .collect();
        assert_eq!(rows, self.0, "the scoreboard");
        let view: BTreeMap<MemberId, [u32; 4]> = state
            .scores_view()
            .iter()
            .map(|v| (v.member.unwrap(), [v.points, v.wins, v.draws, v.losses]))
            .collect();
        assert_eq!(view, self.0, "the scoreboard as sent");
    }
}

impl Cup {
    /// `members` browsers "P1"… join, the first `seated` sit in seats 0….
    fn new(kind: GameKind, opts: Value, members: usize, seated: usize) -> Cup {
        Cup::with_config(kind, opts, members, seated, config())
    }

    fn with_config(
        kind: GameKind,
        opts: Value,
        members: usize,
        seated: usize,
        config: RoomConfig,
    ) -> Cup {
        let mut state = room_with(kind, opts, config);
        let mut store = Store::new(&state);
        let mut players = Vec::new();
        for i in 0..members {
            let name = format!("P{}", i + 1);
            let (id, effects) = join_as(&mut state, greeting(&browser(i), Some(&name), None), 0);
            store.apply(&effects);
            if i < seated {
                store.apply(&ok(&mut state, id, sit(i), 0));
            }
            players.push(id);
        }
        Cup {
            state,
            store,
            players,
            now: 1_000,
        }
    }

    fn host(&self) -> MemberId {
        self.players[0]
    }

    fn ok(&mut self, member: MemberId, command: Command) -> Vec<Effect> {
        self.now += 10;
        let effects = ok(&mut self.state, member, command, self.now);
        self.store.apply(&effects);
        effects
    }

    /// A refusal that changes nothing; its code.
    fn code(&mut self, member: MemberId, command: Command) -> Code {
        code(&mut self.state, member, command, self.now)
    }

    fn fire(&mut self, timer: Timer, now: u64) -> Vec<Effect> {
        self.now = self.now.max(now);
        let before = self.state.version;
        let effects = self.state.fire(timer, now);
        check_versions(before, &effects, &self.state);
        self.store.apply(&effects);
        effects
    }

    fn disconnect(&mut self, member: MemberId) -> Vec<Effect> {
        self.now += 10;
        let effects = self.state.disconnect(member, self.now);
        self.store.apply(&effects);
        effects
    }

    fn bracket(&self) -> &Bracket {
        self.state.tournament.as_ref().expect("a tournament")
    }

    fn round(&self) -> Round {
        self.bracket().current().expect("a round").clone()
    }

    fn pairing(&self, table: TableId) -> Pairing {
        self.bracket()
            .pairing_at(table)
            .expect("a match there")
            .clone()
    }

    /// Table `id`'s current (or last) game.
    fn game(&self, id: TableId) -> &Match {
        self.state
            .tables
            .iter()
            .find(|t| t.id == id)
            .and_then(|t| t.current.as_ref())
            .expect("a game at the table")
    }

    /// Who plays side 0 and side 1 at table `id`.
    fn sides_at(&self, id: TableId) -> [MemberId; 2] {
        let m = self.game(id);
        assert_eq!(m.sides.len(), 2, "a 1-v-1 game");
        assert!(m.sides.iter().all(|s| s.len() == 1), "one player a side");
        [m.sides[0][0].member, m.sides[1][0].member]
    }

    /// The player due at table `id` plays `text` there.
    fn play(&mut self, id: TableId, text: &str) -> Vec<Effect> {
        let due = self.game(id).due().expect("someone to move").member;
        self.ok(
            due,
            Command::Move {
                mv: text.to_string(),
                table: Some(id),
            },
        )
    }

    /// A drawn Quoridor game at table `id` (move limit 2): two steps a
    /// pawn, forward and back.
    fn draw(&mut self, id: TableId) -> Vec<Effect> {
        let mut effects = Vec::new();
        for text in ["e2", "e8", "e1", "e9"] {
            effects = self.play(id, text);
        }
        let done = self.store.finished.last().expect("the game is stored");
        assert!(matches!(done.outcome, Outcome::Draw { .. }), "{done:?}");
        effects
    }

    fn resign(&mut self, id: TableId, member: MemberId) -> Vec<Effect> {
        self.ok(member, Command::Resign { table: Some(id) })
    }

    /// The round under way has just started: the bracket was sent, then a
    /// game at each match's own table with its first player moving first.
    fn check_round_started(&self, effects: &[Effect]) {
        let round = self.round();
        assert_eq!(self.bracket().status, Status::Playing);
        let events = sent(effects);
        let bracket = serde_json::to_value(self.bracket()).unwrap();
        let at = events
            .iter()
            .position(|e| e["type"] == "tournament")
            .expect("the bracket is sent");
        assert_eq!(events[at]["tournament"], bracket);
        let starts: Vec<&Value> = events[at..]
            .iter()
            .filter(|e| e["type"] == "match" && e["kind"] == "start")
            .collect();
        assert_eq!(starts.len(), round.pairings.len());
        let tables: Vec<TableId> = self.state.tables.iter().map(|t| t.id).collect();
        let wanted: Vec<TableId> = round.pairings.iter().map(|p| p.table).collect();
        assert_eq!(tables, wanted, "a table per match, in bracket order");
        for (p, start) in round.pairings.iter().zip(starts) {
            assert_eq!(start["table"], json!(p.table));
            assert_eq!(start["match"]["players"][0]["member"], json!(p.players[0]));
            assert_eq!(self.sides_at(p.table), p.players);
            assert!(self.game(p.table).is_running());
            assert!(p.games.is_empty());
        }
        let stored = tags(effects);
        assert!(stored.contains(&"store:tournament".to_string()));
        assert_eq!(
            stored.iter().filter(|t| *t == "store:game_started").count(),
            round.pairings.len()
        );
        assert_eq!(self.store.tournament.as_ref(), Some(self.bracket()));
        assert_eq!(self.state.countdown, None);
    }

    /// Plays every match of the round under way by `plan`, in bracket
    /// order, and keeps `tally`. Returns the effects of the round's last
    /// result.
    fn play_round(
        &mut self,
        tally: &mut Tally,
        plan: impl Fn(usize, &Pairing) -> Plan,
    ) -> Vec<Effect> {
        let round = self.round();
        assert_eq!(self.bracket().status, Status::Playing);
        let mut last = Vec::new();
        for (i, pairing) in round.pairings.iter().enumerate() {
            let id = pairing.table;
            let [a, b] = pairing.players;
            let plan = plan(i, pairing);
            let draws = match plan {
                Plan::Win(_) => 0,
                Plan::DrawThenWin(_) => 1,
                Plan::Coin => 2,
            };
            for g in 0..draws {
                let number = self.game(id).number;
                last = self.draw(id);
                if g == 0 {
                    // The replay: the same table, the other player first.
                    assert_eq!(self.pairing(id).games, [GameResult::Draw]);
                    assert!(self.game(id).is_running());
                    assert_eq!(self.sides_at(id), [b, a]);
                    assert!(self.game(id).number > number);
                    let events = sent(&last);
                    let restart = events
                        .iter()
                        .find(|e| e["type"] == "match" && e["kind"] == "start")
                        .expect("the replay starts");
                    assert_eq!(restart["table"], json!(id));
                    assert_eq!(restart["match"]["players"][0]["member"], json!(b));
                    assert!(
                        !tags(&last).contains(&"store:score".to_string()),
                        "a first draw scores nothing"
                    );
                }
            }
            match plan {
                Plan::Win(w) | Plan::DrawThenWin(w) => {
                    let (winner, loser) = (pairing.players[w], pairing.players[1 - w]);
                    self.play(id, "e2");
                    self.play(id, "e8");
                    last = self.resign(id, loser);
                    assert_eq!(self.pairing(id).state, PairingState::Won { winner });
                    tally.add(winner, [MATCH_POINTS, 1, 0, 0]);
                    tally.add(loser, [0, 0, 0, 1]);
                }
                Plan::Coin => {
                    let PairingState::CoinToss { winner } = self.pairing(id).state else {
                        panic!("two draws: the coin");
                    };
                    let events = sent(&last);
                    let toss = events
                        .iter()
                        .position(|e| e["type"] == "coin_toss")
                        .expect("the coin is shown");
                    assert_eq!(
                        events[toss],
                        json!({"type": "coin_toss", "v": events[toss]["v"], "table": id,
                               "players": [a, b], "winner": winner})
                    );
                    let bracket = events
                        .iter()
                        .position(|e| e["type"] == "tournament")
                        .expect("then the bracket");
                    assert!(toss < bracket);
                    tally.add(a, [0, 0, 1, 0]);
                    tally.add(b, [0, 0, 1, 0]);
                }
            }
            assert!(!self.game(id).is_running());
        }
        last
    }

    /// The round is over and the countdown runs: when it ends.
    fn countdown_at(&self) -> u64 {
        assert_eq!(self.bracket().status, Status::BetweenRounds);
        match self.state.countdown {
            Some(Countdown::Running { at_ms }) => at_ms,
            other => panic!("the countdown should run: {other:?}"),
        }
    }

    /// Plays the tournament under way to its champion (starting each round
    /// by the countdown), every match by `plan`; adds the champion's
    /// bonus to `tally`.
    fn play_to_the_end(
        &mut self,
        tally: &mut Tally,
        plan: impl Fn(u32, usize, &Pairing) -> Plan,
    ) -> MemberId {
        loop {
            let number = self.round().number;
            self.play_round(tally, |i, p| plan(number, i, p));
            if let Status::Finished { champion } = self.bracket().status {
                tally.add(champion, [CHAMPION_POINTS, 0, 0, 0]);
                assert_eq!(self.state.countdown, None, "no countdown after the final");
                return champion;
            }
            let at = self.countdown_at();
            assert!(self.fire(Timer::Countdown, at - 1).is_empty());
            let effects = self.fire(Timer::Countdown, at);
            assert_eq!(self.round().number, number + 1);
            self.check_round_started(&effects);
        }
    }
}

#[test]
fn a_tournament_of_five_is_scored_3_a_match_10_for_the_champion_and_nothing_for_draws() {
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
fn tournaments_of_3_to_32_players_are_played_to_a_champion_through_the_room() {
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
fn a_crossyray_tournament_is_won_over_the_board() {
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
fn a_player_who_resigns_loses_the_match_even_before_the_game_counts() {
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
fn a_player_offline_past_the_grace_time_loses_the_match_and_the_tournament_goes_on() {
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
    cup.fire(Timer::Countdown, at);
    let f = cup.round().pairings[0].clone();
    assert_eq!(cup.round().number, 2);
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
fn a_tournament_needs_three_to_thirty_two_players_all_online() {
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

fn refusal_of(cup: &mut Cup, member: MemberId, command: Command) -> crate::protocol::Refusal {
    crate::room::tests::refused(&mut cup.state, member, command, cup.now)
}

#[test]
fn refusals_during_a_tournament_change_nothing() {
    let mut cup = Cup::new(GameKind::Quoridor, quoridor(2), 5, 5);
    let (host, guest) = (cup.host(), cup.players[1]);
    assert_eq!(cup.code(host, Command::Stop), Code::NoGame, "no tournament");
    assert_eq!(cup.code(guest, Command::Stop), Code::NotHost);
    cup.ok(host, start(Order::Random));
    let round = cup.round();
    let (p, q, bye) = (
        round.pairings[0].clone(),
        round.pairings[1].clone(),
        round.bye.unwrap(),
    );
    let a = p.players[0];
    let elsewhere = |table| Command::Move {
        mv: "e2".into(),
        table: Some(table),
    };
    // Not at one's own table.
    assert_eq!(cup.code(a, elsewhere(q.table)), Code::NotYourTurn);
    assert_eq!(
        cup.code(
            a,
            Command::Resign {
                table: Some(q.table)
            }
        ),
        Code::NoGame
    );
    assert_eq!(cup.code(a, elsewhere(TableId::new())), Code::NoTable);
    assert_eq!(cup.code(bye, elsewhere(p.table)), Code::NotYourTurn);
    assert_eq!(
        cup.code(
            bye,
            Command::Move {
                mv: "e2".into(),
                table: None
            }
        ),
        Code::NotYourTurn
    );
    // Host commands while the round is played.
    let knockout = || options(None, quoridor(3));
    assert_eq!(cup.code(host, knockout()), Code::GameRunning);
    assert_eq!(cup.code(host, Command::Stop), Code::GameRunning);
    assert_eq!(cup.code(guest, Command::Stop), Code::NotHost);
    assert_eq!(cup.code(host, start(Order::Random)), Code::GameRunning);
    assert_eq!(cup.code(guest, start(Order::Random)), Code::NotHost);
    // One match over, the other still on: the round is still played.
    cup.resign(p.table, p.players[1]);
    assert_eq!(
        cup.code(
            a,
            Command::Move {
                mv: "e2".into(),
                table: Some(p.table)
            }
        ),
        Code::NoGame
    );
    assert_eq!(cup.code(host, Command::Stop), Code::GameRunning);
    assert_eq!(cup.code(host, knockout()), Code::GameRunning);
    cup.resign(q.table, q.players[1]);
    // Between rounds: no options (not even another game), no stop but
    // the host's.
    assert_eq!(cup.bracket().status, Status::BetweenRounds);
    assert_eq!(cup.code(host, knockout()), Code::GameRunning);
    assert_eq!(
        cup.code(host, options(Some("jungle"), json!({"mode": "knockout"}))),
        Code::GameRunning
    );
    assert_eq!(cup.code(guest, Command::Stop), Code::NotHost);

    // The host stops it: recorded as stopped, the countdown dropped, the
    // points kept.
    let scores = cup.state.scores.clone();
    let at = cup.countdown_at();
    let effects = cup.ok(host, Command::Stop);
    assert_eq!(cup.bracket().status, Status::Stopped);
    assert_eq!(cup.state.countdown, None);
    assert_eq!(cup.state.scores, scores);
    assert_eq!(
        tags(&effects),
        ["store:tournament", "send:tournament", "send:autostart"],
        "the dropped countdown is announced"
    );
    assert_eq!(
        sent(&effects)[0]["tournament"]["status"],
        json!({"kind": "stopped"})
    );
    assert_eq!(cup.store.tournament.as_ref(), Some(cup.bracket()));
    assert!(cup.fire(Timer::Countdown, at).is_empty());
    assert_eq!(cup.round().number, 1, "no round 2 after a stop");
    assert_eq!(cup.code(host, Command::Stop), Code::NoGame);
    // Options may change again; back to single games, the room plays at
    // its own table and the bracket goes.
    cup.ok(host, options(None, json!({"mode": "ffa"})));
    let effects = cup.ok(host, start(Order::Seats));
    assert!(cup.state.tournament.is_none());
    assert_eq!(cup.state.tables.len(), 1);
    assert_eq!(cup.state.tables[0].id, cup.state.main_table);
    let events = sent(&effects);
    assert_eq!(events[0]["type"], "tournament");
    assert_eq!(events[0]["tournament"], Value::Null);
    assert_eq!(cup.store.tournament, None);
}

/// A [`Store`] holding what `saved` holds.
fn store_of(saved: SavedRoom) -> Store {
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
fn assert_same_tournament(a: &RoomState, b: &RoomState) {
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
fn a_room_restored_in_the_middle_of_round_2_has_the_same_bracket_tables_and_games() {
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

impl Cup {
    /// One turn at table `id`: the computer's (its search answers nothing,
    /// so the room plays the first legal move) or a person's first legal
    /// move.
    fn turn(&mut self, id: TableId) -> Vec<Effect> {
        let m = self.game(id);
        let due = m.due().expect("someone to move").clone();
        if due.computer.is_none() {
            let text = m.game.legal()[0].clone();
            return self.play(id, &text);
        }
        let t = self.state.tables.iter().position(|t| t.id == id).unwrap();
        let think = self.state.tables[t]
            .thinking
            .expect("the computer thinks when it is due");
        self.now += 10;
        let before = self.state.version;
        let effects = self.state.bot_move(id, think, None, self.now);
        check_versions(before, &effects, &self.state);
        self.store.apply(&effects);
        effects
    }

    /// The member of the computer in the room.
    fn computer(&self) -> MemberId {
        self.state
            .members
            .iter()
            .find(|m| m.computer.is_some())
            .expect("a computer")
            .id
    }

    /// Ends every match of the round under way with a person resigning
    /// (against the computer, the person; else the second player).
    fn humans_resign(&mut self) {
        let bot = self.state.members.iter().find(|m| m.computer.is_some());
        let bot = bot.map(|m| m.id);
        for p in self.round().pairings {
            let loser = if p.players[1] == bot.unwrap_or(MemberId(0)) {
                p.players[0]
            } else {
                p.players[1]
            };
            self.resign(p.table, loser);
        }
    }
}

/// Two people in seats 0 and 1, the computer in seat 2.
fn jungle_with_the_computer() -> Cup {
    let mut cup = Cup::new(GameKind::Jungle, json!({"mode": "knockout"}), 2, 2);
    let host = cup.host();
    cup.ok(
        host,
        Command::Computer {
            seat: 2,
            level: Some(Level::Beginner),
        },
    );
    cup
}

#[test]
fn the_computer_enters_and_plays_its_matches() {
    let mut cup = jungle_with_the_computer();
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
fn a_computer_in_the_tournament_cannot_be_taken_out_between_rounds() {
    let mut cup = jungle_with_the_computer();
    let (host, bot) = (cup.host(), cup.computer());
    cup.ok(host, start(Order::Random));
    cup.humans_resign();
    assert_eq!(cup.bracket().status, Status::BetweenRounds);
    assert!(cup.bracket().current().unwrap().advancing().contains(&bot));
    let out = Command::Computer {
        seat: 2,
        level: None,
    };
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
fn an_entrant_is_never_let_go_while_the_tournament_goes_on() {
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
fn a_room_restored_between_rounds_counts_down_to_the_next_round_again() {
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
    // The countdown starts again from the top, and starts round 2.
    let at = restored.countdown_at();
    assert_eq!(at, later + config().autostart_after_ms);
    assert!(restored.fire(Timer::Countdown, at - 1).is_empty());
    let effects = restored.fire(Timer::Countdown, at);
    restored.check_round_started(&effects);
    assert_eq!(restored.round().number, 2);
    let champion = restored.play_to_the_end(&mut tally, |_, _, _| Plan::Win(1));
    tally.check(&restored.state);
    check_played(restored.bracket(), 5, champion);
}
