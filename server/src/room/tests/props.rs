//! Random sequences of hellos, disconnects, commands, moves (legal and
//! junk), computer answers and timers from 3-5 browsers, checking the
//! room's invariants after every step, and at the end that the room
//! restored from its writes is the room.

use proptest::prelude::*;
use rules::Level;

use super::restore::assert_same_room;
use super::sim::Sim;
use super::*;

/// The games a room starts with and the host may switch to (the last two
/// are refused).
const SETUPS: [(&str, &str); 10] = [
    ("crossyray", "null"),
    (
        "crossyray",
        r#"{"clock": {"minutes": 3, "increment": 2}, "width": 5, "height": 7}"#,
    ),
    ("jungle", "null"),
    ("jungle", r#"{"clock": [3, 2]}"#),
    ("quoridor", "null"),
    ("quoridor", r#"{"players": 3, "turn_seconds": 15}"#),
    ("quoridor", r#"{"mode": "teams"}"#),
    ("quoridor", r#"{"players": 4, "size": 11}"#),
    ("crossyray", r#"{"width": 8}"#),
    ("chess", "null"),
];

const NAMES: [&str; 5] = ["Minh", "Lan", "Minh", "\u{202E}evil", ""];
const JUNK: [&str; 7] = ["", "zz", "e99", "9 a1-a2", "goal:up", "pass", "a1h"];
const CHAT: [&str; 3] = ["hi", "", "\u{202E}gg"];

#[derive(Clone, Debug)]
pub enum Cmd {
    Name(&'static str),
    Sit(usize),
    Stand,
    Start(bool),
    Resign,
    Options(usize),
    Computer(usize, Option<Level>),
    Chat(&'static str),
    Countdown(bool),
    Autostart(bool),
    Ping,
    /// 0 offer, 1 accept, 2 decline.
    Draw(u8),
    Rematch,
    /// The host's hand on browser `k`'s member.
    Unseat(usize),
    Remove(usize),
    Readmit(usize),
    Voice(bool),
    Mute(bool),
    /// The host mutes (or unmutes) browser `k`'s member in voice.
    VoiceMute(usize, bool),
    /// 0 offer, 1 accept, 2 decline.
    Takeback(u8),
    /// `true`: the win, `false`: a draw.
    Claim(bool),
    /// The host gives the role to browser `k`'s member.
    Host(usize),
    Hint,
}

#[derive(Clone, Debug)]
pub enum Act {
    /// Browser `w` opens a connection (every browser opens one first, most
    /// with a name).
    Hello(usize, Option<&'static str>),
    /// One of browser `w`'s connections closes.
    Leave(usize),
    /// Every browser asks for a seat of its own (seat `w`; in teams,
    /// alternately on each team).
    SitDown,
    /// The member due to move plays legal move `k`.
    Due(usize),
    /// Browser `w` plays legal move `k` (refused unless it is due).
    Try(usize, usize),
    /// Browser `w` sends a move the rules most likely refuse.
    Junk(usize, &'static str),
    Cmd(usize, Cmd),
    /// Time passes; every timer due fires.
    Tick(u64),
    /// A timer that is not due fires: nothing happens.
    Stray(usize),
    /// The computer's search answers (legal move `k`, junk or nothing),
    /// or an older search does.
    Bot(Option<usize>, bool, bool),
}

fn cmd() -> impl Strategy<Value = Cmd> {
    let level = prop::option::of(prop::sample::select(&Level::ALL[..]));
    prop_oneof![
        1 => prop::sample::select(&NAMES[..]).prop_map(Cmd::Name),
        4 => any::<usize>().prop_map(Cmd::Sit),
        1 => Just(Cmd::Stand),
        3 => any::<bool>().prop_map(Cmd::Start),
        1 => Just(Cmd::Resign),
        1 => (0..SETUPS.len()).prop_map(Cmd::Options),
        2 => (any::<usize>(), level).prop_map(|(s, l)| Cmd::Computer(s, l)),
        1 => prop::sample::select(&CHAT[..]).prop_map(Cmd::Chat),
        1 => any::<bool>().prop_map(Cmd::Countdown),
        1 => any::<bool>().prop_map(Cmd::Autostart),
        1 => Just(Cmd::Ping),
        2 => (0u8..3).prop_map(Cmd::Draw),
        2 => Just(Cmd::Rematch),
        1 => any::<usize>().prop_map(Cmd::Unseat),
        1 => any::<usize>().prop_map(Cmd::Remove),
        1 => any::<usize>().prop_map(Cmd::Readmit),
        1 => any::<bool>().prop_map(Cmd::Voice),
        1 => any::<bool>().prop_map(Cmd::Mute),
        1 => (any::<usize>(), any::<bool>()).prop_map(|(k, m)| Cmd::VoiceMute(k, m)),
        2 => (0u8..3).prop_map(Cmd::Takeback),
        1 => any::<bool>().prop_map(Cmd::Claim),
        1 => any::<usize>().prop_map(Cmd::Host),
        1 => Just(Cmd::Hint),
    ]
}

fn act() -> impl Strategy<Value = Act> {
    prop_oneof![
        3 => (0usize..5, prop::option::of(prop::sample::select(&NAMES[..])))
            .prop_map(|(w, n)| Act::Hello(w, n)),
        1 => (0usize..5).prop_map(Act::Leave),
        2 => Just(Act::SitDown),
        12 => any::<usize>().prop_map(Act::Due),
        2 => (0usize..5, any::<usize>()).prop_map(|(w, k)| Act::Try(w, k)),
        1 => (0usize..5, prop::sample::select(&JUNK[..])).prop_map(|(w, j)| Act::Junk(w, j)),
        10 => (0usize..8, cmd()).prop_map(|(w, c)| Act::Cmd(w, c)),
        2 => (0u64..40_000).prop_map(Act::Tick),
        1 => any::<usize>().prop_map(Act::Stray),
        2 => (prop::option::of(any::<usize>()), any::<bool>(), any::<bool>())
            .prop_map(|(k, junk, stale)| Act::Bot(k, junk, stale)),
    ]
}

pub fn setup(i: usize) -> (Option<&'static str>, Value) {
    let (game, opts) = SETUPS[i];
    (Some(game), serde_json::from_str(opts).unwrap())
}

fn run(
    start_with: usize,
    n: usize,
    cap: Option<usize>,
    computers: bool,
    names: Vec<Option<&'static str>>,
    acts: Vec<Act>,
) {
    let (game, opts) = setup(start_with);
    let kind = GameKind::parse(game.unwrap()).unwrap();
    let config = RoomConfig {
        abandon_after_ms: 20_000,
        autostart_after_ms: 15_000,
        bot_budget_ms: 1_000,
        max_members: cap.unwrap_or(200),
        max_watchers: cap.unwrap_or(20_000),
        members_per_addr: 20,
        ..RoomConfig::default()
    };
    let state = room_with(kind, opts, config.clone());
    let mut sim = Sim {
        store: Store::new(&state),
        state,
        tokens: (0..n)
            .map(|i| if i == 0 { HOST.to_string() } else { token(i) })
            .collect(),
        now: 1_000,
        v: 0,
        logs: Default::default(),
        changed_at: 0,
        computers,
    };
    let first = (0..n).map(|w| Act::Hello(w, names[w]));
    for act in first.chain(acts) {
        sim.step(act, n);
        sim.check();
    }
    // Everything that matters was stored.
    let later = sim.now + 1_000_000;
    let (restored, _) = RoomState::restore(sim.store.saved(), config, later);
    assert_same_room(&sim.state, sim.changed_at, &restored, later);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn random_commands_keep_the_rooms_invariants(
        start_with in 0usize..8,
        n in 3usize..=5,
        names in prop::collection::vec(prop::option::weighted(0.8, prop::sample::select(&NAMES[..3])), 5),
        acts in prop::collection::vec(act(), 1..60),
    ) {
        run(start_with, n, None, true, names, acts);
    }

    /// Newcomers make room by letting offline guests go (without the
    /// computer, which the cap does not stop).
    #[test]
    fn random_commands_at_the_member_cap_keep_the_rooms_invariants(
        start_with in 0usize..8,
        n in 3usize..=5,
        cap in 2usize..=4,
        names in prop::collection::vec(prop::option::weighted(0.8, prop::sample::select(&NAMES[..3])), 5),
        acts in prop::collection::vec(act(), 1..60),
    ) {
        run(start_with, n, Some(cap), false, names, acts);
    }


    /// With the computer seated a room can be over its cap (see
    /// `members::a_room_full_refusal_evicts_nobody`).
    #[test]
    fn random_commands_at_the_member_cap_with_the_computer_keep_the_rooms_invariants(
        start_with in 0usize..8,
        n in 3usize..=5,
        cap in 2usize..=4,
        names in prop::collection::vec(prop::option::weighted(0.8, prop::sample::select(&NAMES[..3])), 5),
        acts in prop::collection::vec(act(), 1..60),
    ) {
        run(start_with, n, Some(cap), true, names, acts);
    }
}
