//! The host's settings and the starting layout they imply: start cells,
//! goals, turn order, wall stock and move limit (RULES.md §2, "Goals and
//! starts", "Walls per player", "Passing, blocking, timers, draws").
//!
//! Serialized as
//! `{"size": 9, "players": 2, "walls": "auto", "goal": "edge", "turn_seconds": 30}`
//! (`walls` is `"auto"` or one of 1, 3, 5, 7, 10, 15, 20). Every field may
//! be left out and takes the default shown.
//!
//! Teams and knockout matches are two-sided games: pass `players: 2`. The
//! rules never see the people behind a side, and a team plays exactly like
//! a single player (same starts, same wall column of the Auto table).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::bitboard::Bitboard;
use super::cell::{Cell, Direction};
use crate::game::SetupError;
use crate::written::{not_a, present, Written};

/// The board sizes RULES.md allows.
pub const SIZES: [u8; 3] = [9, 11, 13];
/// The fixed wall stocks a host may pick instead of Auto.
pub const WALL_CHOICES: [u8; 7] = [1, 3, 5, 7, 10, 15, 20];
/// Most pawns on one board.
pub const MAX_PAWNS: usize = 8;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Raw")]
pub struct Options {
    /// Board side: 9, 11 or 13.
    pub size: u8,
    /// Number of sides, hence pawns: 2 to 8 (a team is one side).
    pub players: u8,
    /// Walls per side.
    pub walls: WallStock,
    /// Where the pawns race to.
    pub goal: GoalMode,
    /// Seconds per turn, 15 to 90.
    pub turn_seconds: u32,
    /// Moves per pawn before a draw, 1 to 200, instead of the board's
    /// (60, 75, 90): for short games in tests and drills. Left out of the
    /// serialised options when not set.
    /// Written only as a number: `null` is refused like any other
    /// non-number (RULES.md: leave it out for the board's limit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_limit: Option<u16>,
}

/// The options as written, before each is read as what it is kept in:
/// a number no field's type holds (or not a whole number) is refused in
/// the words of [`Options::validate`], not of the type, and `null` is the
/// value of none of them (RULES.md §2).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[serde(default, deserialize_with = "present")]
    size: Option<Written>,
    #[serde(default, deserialize_with = "present")]
    players: Option<Written>,
    #[serde(default, deserialize_with = "present")]
    walls: Option<Written>,
    #[serde(default, deserialize_with = "present")]
    goal: Option<Written>,
    #[serde(default, deserialize_with = "present")]
    turn_seconds: Option<Written>,
    #[serde(default, deserialize_with = "present")]
    move_limit: Option<Written>,
}

impl TryFrom<Raw> for Options {
    type Error = String;

    fn try_from(raw: Raw) -> Result<Options, String> {
        let mut o = Options::default();
        if let Some(v) = raw.size {
            o.size = v.number("size", "9, 11 or 13", not_a_size)?;
        }
        if let Some(v) = raw.players {
            o.players = v.number("players", "a number from 2 to 8", not_a_player_count)?;
        }
        if let Some(v) = raw.walls {
            o.walls = WallStock::read(&v)?;
        }
        if let Some(v) = raw.goal {
            o.goal = GoalMode::read(&v)?;
        }
        if let Some(v) = raw.turn_seconds {
            o.turn_seconds =
                v.number("turn_seconds", "a number from 15 to 90", not_a_turn_timer)?;
        }
        if let Some(v) = raw.move_limit {
            o.move_limit =
                Some(v.number("move_limit", "a number from 1 to 200", not_a_move_limit)?);
        }
        Ok(o)
    }
}

fn not_a_size(size: &dyn fmt::Display) -> String {
    format!("the board must be 9×9, 11×11 or 13×13, not {size}×{size}")
}

fn not_a_player_count(players: &dyn fmt::Display) -> String {
    format!("Quoridor is for 2 to 8 players, not {players}")
}

fn not_a_wall_choice(walls: &dyn fmt::Display) -> String {
    format!("walls per player must be Auto or one of 1, 3, 5, 7, 10, 15, 20, not {walls}")
}

fn not_a_move_limit(limit: &dyn fmt::Display) -> String {
    format!("the move limit must be 1 to 200 moves per pawn, not {limit}")
}

fn not_a_turn_timer(seconds: &dyn fmt::Display) -> String {
    format!("the turn timer must be 15 to 90 seconds, not {seconds}")
}

impl Default for Options {
    fn default() -> Options {
        Options {
            size: 9,
            players: 2,
            walls: WallStock::Auto,
            goal: GoalMode::Edge,
            turn_seconds: 30,
            move_limit: None,
        }
    }
}

/// How many walls each side gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum WallStock {
    /// From RULES.md's table, by board size and number of sides.
    #[default]
    Auto,
    /// Exactly this many (one of [`WALL_CHOICES`]).
    Fixed(u8),
}

/// The goal of every pawn: written `"edge"` or `"centre"` (read as
/// `"center"` too), and in no other form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GoalMode {
    /// Any cell of the edge opposite the start edge.
    #[default]
    Edge,
    /// The centre cell ("centre race").
    Centre,
}

impl GoalMode {
    /// The goal from its name on the wire.
    fn read(value: &Written) -> Result<GoalMode, String> {
        match value {
            Written::Text(t) if t == "edge" => Ok(GoalMode::Edge),
            Written::Text(t) if t == "centre" || t == "center" => Ok(GoalMode::Centre),
            other => Err(not_a("goal", "\"edge\" or \"centre\"", other)),
        }
    }
}

impl<'de> Deserialize<'de> for GoalMode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<GoalMode, D::Error> {
        GoalMode::read(&Written::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// Where a pawn is headed, as drawn by a client.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    Top,
    Bottom,
    Left,
    Right,
    Centre,
}

impl Options {
    /// The fields a host may set, as written (any other is refused).
    pub const FIELDS: [&'static str; 6] = [
        "size",
        "players",
        "walls",
        "goal",
        "turn_seconds",
        "move_limit",
    ];

    /// Checks every field, with a message for the host.
    pub fn validate(&self) -> Result<(), SetupError> {
        if !SIZES.contains(&self.size) {
            return Err(SetupError(not_a_size(&self.size)));
        }
        if !(2..=MAX_PAWNS as u8).contains(&self.players) {
            return Err(SetupError(not_a_player_count(&self.players)));
        }
        if let WallStock::Fixed(n) = self.walls {
            if !WALL_CHOICES.contains(&n) {
                return Err(SetupError(not_a_wall_choice(&n)));
            }
        }
        if let Some(limit) = self.move_limit.filter(|l| !(1..=200).contains(l)) {
            return Err(SetupError(not_a_move_limit(&limit)));
        }
        if !(15..=90).contains(&self.turn_seconds) {
            return Err(SetupError(not_a_turn_timer(&self.turn_seconds)));
        }
        Ok(())
    }

    /// Walls each side starts with.
    pub fn wall_stock(&self) -> u8 {
        match self.walls {
            WallStock::Fixed(n) => n,
            WallStock::Auto => {
                let column = match self.players {
                    2 => 0,
                    3 => 1,
                    4 => 2,
                    _ => 3,
                };
                let row: [u8; 4] = match self.size {
                    9 => [10, 7, 5, 3],
                    11 => [12, 8, 6, 4],
                    _ => [15, 10, 7, 4],
                };
                row[column]
            }
        }
    }

    /// Moves per pawn after which the game is drawn: 60 on 9×9, 75 on
    /// 11×11, 90 on 13×13, unless the options set another.
    pub fn move_limit(&self) -> u16 {
        if let Some(limit) = self.move_limit {
            return limit;
        }
        match self.size {
            9 => 60,
            11 => 75,
            _ => 90,
        }
    }

    /// The centre cell.
    pub fn centre(&self) -> Cell {
        let mid = (self.size - 1) / 2;
        Cell::new(mid, mid).expect("size checked")
    }

    /// The seats in turn order: start cell, goal, and the direction the
    /// pawn faces (away from its start edge; bottom corners face up, top
    /// corners down), which orders the automatic step aside.
    pub(crate) fn seats(&self) -> Vec<Seat> {
        let n = self.size;
        let last = n - 1;
        let mid = last / 2;
        let edge = |edge: Target, at: u8| -> Seat {
            let (file, rank, forward, opposite) = match edge {
                Target::Bottom => (at, 0, Direction::Up, Target::Top),
                Target::Top => (at, last, Direction::Down, Target::Bottom),
                Target::Left => (0, at, Direction::Right, Target::Right),
                Target::Right => (last, at, Direction::Left, Target::Left),
                Target::Centre => unreachable!("a start is on an edge"),
            };
            Seat {
                start: Cell::new(file, rank).expect("on the board"),
                forward,
                target: match self.goal {
                    GoalMode::Edge => opposite,
                    GoalMode::Centre => Target::Centre,
                },
            }
        };
        let p = self.players as usize;
        let corners = || {
            [
                (Target::Bottom, 0),
                (Target::Top, last),
                (Target::Top, 0),
                (Target::Bottom, last),
            ]
        };
        let pairs = || {
            [
                (Target::Bottom, mid - 2),
                (Target::Left, mid - 2),
                (Target::Top, mid + 2),
                (Target::Right, mid + 2),
                (Target::Bottom, mid + 2),
                (Target::Left, mid + 2),
                (Target::Top, mid - 2),
                (Target::Right, mid - 2),
            ]
        };
        let slots: Vec<(Target, u8)> = match (self.goal, p) {
            (GoalMode::Edge, 2) => vec![(Target::Bottom, mid), (Target::Top, mid)],
            (GoalMode::Edge, 3..=4) => vec![
                (Target::Bottom, mid),
                (Target::Left, mid),
                (Target::Top, mid),
                (Target::Right, mid),
            ],
            (GoalMode::Centre, 2..=4) => corners().to_vec(),
            _ => pairs().to_vec(),
        };
        slots
            .into_iter()
            .take(p)
            .map(|(e, at)| edge(e, at))
            .collect()
    }

    /// The cells of a goal.
    pub(crate) fn goal_cells(&self, target: Target) -> Bitboard {
        let n = self.size;
        let all = Bitboard::rectangle(n, n);
        match target {
            Target::Bottom => Bitboard::rectangle(n, 1),
            Target::Top => all & !Bitboard::rectangle(n, n - 1),
            Target::Left => Bitboard::rectangle(1, n),
            Target::Right => all & !Bitboard::rectangle(n - 1, n),
            Target::Centre => Bitboard::from_index(self.centre().index()),
        }
    }
}

/// One pawn's place in the setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Seat {
    pub start: Cell,
    pub forward: Direction,
    pub target: Target,
}

impl fmt::Display for WallStock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WallStock::Auto => f.write_str("auto"),
            WallStock::Fixed(n) => write!(f, "{n}"),
        }
    }
}

impl std::str::FromStr for WallStock {
    type Err = String;
    fn from_str(s: &str) -> Result<WallStock, String> {
        if s.eq_ignore_ascii_case("auto") {
            return Ok(WallStock::Auto);
        }
        s.parse()
            .map(WallStock::Fixed)
            .map_err(|_| format!("walls must be auto or a number, not {s:?}"))
    }
}

impl Serialize for WallStock {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            WallStock::Auto => s.serialize_str("auto"),
            WallStock::Fixed(n) => s.serialize_u8(*n),
        }
    }
}

impl WallStock {
    /// On the wire only `"auto"` itself or a number (RULES.md §2): not
    /// `"Auto"`, nor a number in a string, which `FromStr` (for command
    /// lines) takes. A number no `u8` holds gets the words of a number
    /// out of the choices.
    fn read(value: &Written) -> Result<WallStock, String> {
        match value {
            Written::Text(t) if t == "auto" => Ok(WallStock::Auto),
            other => other
                .number(
                    "walls",
                    "\"auto\" or one of 1, 3, 5, 7, 10, 15, 20",
                    not_a_wall_choice,
                )
                .map(WallStock::Fixed),
        }
    }
}

impl<'de> Deserialize<'de> for WallStock {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<WallStock, D::Error> {
        WallStock::read(&Written::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// The default options but for the board, the pawns and the goal: the
/// tests' shorthand.
#[cfg(test)]
pub(crate) fn opts(size: u8, players: u8, goal: GoalMode) -> Options {
    Options {
        size,
        players,
        goal,
        ..Options::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starts(o: &Options) -> Vec<String> {
        o.seats().iter().map(|s| s.start.to_string()).collect()
    }

    #[test]
    fn two_players_start_mid_bottom_and_mid_top() {
        assert_eq!(starts(&opts(9, 2, GoalMode::Edge)), ["e1", "e9"]);
        assert_eq!(starts(&opts(13, 2, GoalMode::Edge)), ["g1", "g13"]);
        let seats = opts(9, 2, GoalMode::Edge).seats();
        assert_eq!(seats[0].target, Target::Top);
        assert_eq!(seats[1].target, Target::Bottom);
    }

    #[test]
    fn three_and_four_players_sit_clockwise_bottom_left_top_right() {
        assert_eq!(starts(&opts(9, 3, GoalMode::Edge)), ["e1", "a5", "e9"]);
        assert_eq!(
            starts(&opts(9, 4, GoalMode::Edge)),
            ["e1", "a5", "e9", "i5"]
        );
        let targets: Vec<Target> = opts(11, 4, GoalMode::Edge)
            .seats()
            .iter()
            .map(|s| s.target)
            .collect();
        assert_eq!(
            targets,
            [Target::Top, Target::Right, Target::Bottom, Target::Left]
        );
    }

    #[test]
    fn five_to_eight_players_fill_two_slots_per_edge_in_the_decided_order() {
        assert_eq!(
            starts(&opts(9, 8, GoalMode::Edge)),
            ["c1", "a3", "g9", "i7", "g1", "a7", "c9", "i3"]
        );
        assert_eq!(
            starts(&opts(9, 5, GoalMode::Edge)),
            ["c1", "a3", "g9", "i7", "g1"]
        );
        assert_eq!(
            starts(&opts(13, 8, GoalMode::Edge)),
            ["e1", "a5", "i13", "m9", "i1", "a9", "e13", "m5"]
        );
    }

    #[test]
    fn centre_race_starts_from_corners_in_the_decided_order() {
        assert_eq!(
            starts(&opts(9, 4, GoalMode::Centre)),
            ["a1", "i9", "a9", "i1"]
        );
        // Two sides (1-v-1, teams, tournament matches): opposite corners.
        assert_eq!(starts(&opts(11, 2, GoalMode::Centre)), ["a1", "k11"]);
        assert!(opts(9, 3, GoalMode::Centre)
            .seats()
            .iter()
            .all(|s| s.target == Target::Centre));
    }

    #[test]
    fn centre_race_starts_are_equidistant_from_the_centre() {
        for size in SIZES {
            for players in 2..=8 {
                let o = opts(size, players, GoalMode::Centre);
                let c = o.centre();
                let d: Vec<u8> = o
                    .seats()
                    .iter()
                    .map(|s| s.start.file().abs_diff(c.file()) + s.start.rank().abs_diff(c.rank()))
                    .collect();
                assert!(d.iter().all(|&x| x == d[0]), "{size} {players}: {d:?}");
                if size == 9 {
                    assert_eq!(d[0], if players <= 4 { 8 } else { 6 });
                }
            }
        }
    }

    #[test]
    fn a_bad_wall_stock_is_refused_in_words() {
        for (bad, message) in [
            (
                serde_json::json!(null),
                "walls must be \"auto\" or one of 1, 3, 5, 7, 10, 15, 20, not null (leave it out for its default)",
            ),
            (
                serde_json::json!([1]),
                "walls must be \"auto\" or one of 1, 3, 5, 7, 10, 15, 20, not a list",
            ),
            (
                serde_json::json!({"auto": null}),
                "walls must be \"auto\" or one of 1, 3, 5, 7, 10, 15, 20, not an object",
            ),
            (
                serde_json::json!(300),
                "walls per player must be Auto or one of 1, 3, 5, 7, 10, 15, 20, not 300",
            ),
            (
                serde_json::json!(-1),
                "walls per player must be Auto or one of 1, 3, 5, 7, 10, 15, 20, not -1",
            ),
            (
                serde_json::json!(2.5),
                "walls per player must be Auto or one of 1, 3, 5, 7, 10, 15, 20, not 2.5",
            ),
        ] {
            let e = serde_json::from_value::<WallStock>(bad.clone()).unwrap_err();
            assert_eq!(e.to_string(), message, "{bad}");
        }
        let e = serde_json::from_value::<WallStock>(serde_json::json!("Auto")).unwrap_err();
        assert!(e.to_string().contains("not \"Auto\""), "{e}");
        assert_eq!(
            serde_json::from_value::<WallStock>(serde_json::json!(7)).unwrap(),
            WallStock::Fixed(7)
        );
    }

    #[test]
    fn auto_walls_follow_the_table() {
        let expect = [
            (9, [10, 7, 5, 3]),
            (11, [12, 8, 6, 4]),
            (13, [15, 10, 7, 4]),
        ];
        for (size, row) in expect {
            for players in 2..=8u8 {
                let col = (players.min(5) - 2) as usize;
                assert_eq!(opts(size, players, GoalMode::Edge).wall_stock(), row[col]);
            }
        }
        let fixed = Options {
            walls: WallStock::Fixed(20),
            players: 8,
            ..Options::default()
        };
        assert_eq!(fixed.wall_stock(), 20);
    }

    #[test]
    fn bad_options_are_refused_with_a_message() {
        let bad: [fn(&mut Options); 6] = [
            |o| o.size = 10,
            |o| o.players = 1,
            |o| o.players = 9,
            |o| o.walls = WallStock::Fixed(4),
            |o| o.turn_seconds = 10,
            |o| o.turn_seconds = 91,
        ];
        for change in bad {
            let mut o = Options::default();
            change(&mut o);
            let err = o.validate().unwrap_err();
            assert!(!err.0.is_empty());
        }
        assert!(Options::default().validate().is_ok());
    }

    fn refusal(json: serde_json::Value) -> String {
        serde_json::from_value::<Options>(json.clone())
            .map(|o| panic!("{json} read as {o:?}"))
            .unwrap_err()
            .to_string()
    }

    /// A number no field's type holds is refused in the words an
    /// out-of-range number that fits gets from `validate`.
    #[test]
    fn a_number_out_of_any_range_gets_the_rules_words() {
        let checked = |json: serde_json::Value| {
            let o: Options = serde_json::from_value(json).unwrap();
            o.validate().unwrap_err().0
        };
        for (field, fits, too_big, words) in [
            (
                "size",
                10,
                256,
                "the board must be 9×9, 11×11 or 13×13, not {}×{}",
            ),
            ("players", 9, 300, "Quoridor is for 2 to 8 players, not {}"),
            (
                "turn_seconds",
                91,
                4_294_967_296_i64,
                "the turn timer must be 15 to 90 seconds, not {}",
            ),
            (
                "move_limit",
                201,
                65_536,
                "the move limit must be 1 to 200 moves per pawn, not {}",
            ),
        ] {
            let say = |n: &str| words.replace("{}", n);
            assert_eq!(
                checked(serde_json::json!({ field: fits })),
                say(&fits.to_string())
            );
            assert_eq!(
                refusal(serde_json::json!({ field: too_big })),
                say(&too_big.to_string())
            );
            assert_eq!(refusal(serde_json::json!({ field: -1 })), say("-1"));
            assert_eq!(refusal(serde_json::json!({ field: 9.5 })), say("9.5"));
            assert_eq!(refusal(serde_json::json!({ field: 1e300 })), say("1e300"));
        }
    }

    #[test]
    fn null_or_a_string_is_no_number() {
        assert_eq!(
            refusal(serde_json::json!({"move_limit": null})),
            "move_limit must be a number from 1 to 200, not null (leave it out for its default)"
        );
        assert_eq!(
            refusal(serde_json::json!({"size": "9"})),
            "size must be 9, 11 or 13, not \"9\""
        );
        assert_eq!(
            refusal(serde_json::json!({"players": true})),
            "players must be a number from 2 to 8, not true"
        );
        assert_eq!(
            refusal(serde_json::json!({"turn_seconds": [30]})),
            "turn_seconds must be a number from 15 to 90, not a list"
        );
    }

    /// `goal` is one of its names, never serde's `{"centre": null}`.
    #[test]
    fn a_goal_is_only_its_name() {
        for (json, goal) in [
            ("edge", GoalMode::Edge),
            ("centre", GoalMode::Centre),
            ("center", GoalMode::Centre),
        ] {
            let o: Options = serde_json::from_value(serde_json::json!({ "goal": json })).unwrap();
            assert_eq!(o.goal, goal);
        }
        for (bad, shown) in [
            (serde_json::json!({"centre": null}), "an object"),
            (serde_json::json!({}), "an object"),
            (serde_json::json!("Centre"), "\"Centre\""),
            (serde_json::json!(["edge"]), "a list"),
            (serde_json::json!(1), "1"),
            (
                serde_json::json!(null),
                "null (leave it out for its default)",
            ),
        ] {
            assert_eq!(
                refusal(serde_json::json!({ "goal": bad })),
                format!("goal must be \"edge\" or \"centre\", not {shown}")
            );
        }
    }

    #[test]
    fn an_unknown_field_names_every_field() {
        assert_eq!(
            refusal(serde_json::json!({"foo": 1})),
            format!(
                "unknown field `foo`, expected one of {}",
                Options::FIELDS.map(|f| format!("`{f}`")).join(", ")
            )
        );
    }

    #[test]
    fn draw_limit_grows_with_the_board() {
        let limits: Vec<u16> = SIZES
            .iter()
            .map(|&s| opts(s, 2, GoalMode::Edge).move_limit())
            .collect();
        assert_eq!(limits, [60, 75, 90]);
    }
}
