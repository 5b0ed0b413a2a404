//! Knockout tournaments through the real server, over WebSockets: five
//! scripted players play a Quoridor tournament to its champion. Games are
//! short (`move_limit` 3: stepping forward and back, e2 e8 e1 e9 e2 e8,
//! draws), so a match is drawn, replayed with the other player first, and
//! once settled by the coin. A spectator watches both tables of round 1;
//! the server restarts in the middle of round 2 and loses nothing; the
//! rounds start by the auto-start countdown (1 s); the final scoreboard
//! is the rules' (3 a match won, 10 more for the champion, nothing for a
//! draw, a coin toss or a bye).

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use common::{follow, wait_for, Client, TestServer};
use serde_json::{json, Value};

/// A drawn game with `move_limit` 3: each pawn steps forward, back and
/// forward again.
const DRAW: [&str; 6] = ["e2", "e8", "e1", "e9", "e2", "e8"];

const NAMES: [&str; 5] = ["Minh", "Lan", "Khoa", "Hoa", "Tuan"];

struct Player {
    token: String,
    member: Value,
    client: Client,
}

struct Cup {
    code: String,
    players: Vec<Player>,
    watcher: Client,
    watcher_token: String,
    /// Per member: points, wins, draws, losses, as the rules give them.
    tally: BTreeMap<String, [u64; 4]>,
}

fn kind(bracket: &Value) -> &str {
    bracket["status"]["kind"].as_str().unwrap_or("")
}

/// The bracket event that starts round `n`: the round is drawn, being
/// played, and no game of it has ended yet.
fn round_started(n: usize) -> impl Fn(&Value) -> bool {
    move |e| {
        let b = &e["tournament"];
        e["type"] == "tournament"
            && kind(b) == "playing"
            && b["rounds"].as_array().map(Vec::len) == Some(n)
            && b["rounds"][n - 1]["pairings"]
                .as_array()
                .unwrap()
                .iter()
                .all(|p| p["games"] == json!([]))
    }
}

fn status_is(n: usize, status: &'static str) -> impl Fn(&Value) -> bool {
    move |e| {
        e["type"] == "tournament"
            && kind(&e["tournament"]) == status
            && e["tournament"]["rounds"].as_array().map(Vec::len) == Some(n)
    }
}

/// The `match` start of a game at `table` with `first` moving first.
fn game_start(table: Value, first: Value) -> impl Fn(&Value) -> bool {
    move |e| {
        e["type"] == "match"
            && e["kind"] == "start"
            && e["table"] == table
            && e["match"]["players"][0]["member"] == first
    }
}

impl Cup {
    fn client(&mut self, member: &Value) -> &mut Client {
        &mut self
            .players
            .iter_mut()
            .find(|p| p.member == *member)
            .unwrap_or_else(|| panic!("a player {member}"))
            .client
    }

    fn name(&self, member: &Value) -> &'static str {
        let i = self
            .players
            .iter()
            .position(|p| p.member == *member)
            .unwrap();
        NAMES[i]
    }

    fn add(&mut self, member: &Value, row: [u64; 4]) {
        let had = self
            .tally
            .entry(member.as_str().unwrap().to_string())
            .or_default();
        for (h, r) in had.iter_mut().zip(row) {
            *h += r;
        }
    }

    async fn play(&mut self, member: &Value, table: &Value, mv: &str) {
        self.client(member)
            .ok(json!({"type": "move", "move": mv, "table": table}))
            .await;
    }

    /// Game `k` (from 0) of `pairing` is drawn: its first player is
    /// `players[k % 2]` (a replay swaps them).
    async fn draw(&mut self, pairing: &Value, k: usize) {
        let table = &pairing["table"];
        let first = &pairing["players"][k % 2];
        let second = &pairing["players"][1 - k % 2];
        let start = wait_for(&mut self.watcher, game_start(table.clone(), first.clone())).await;
        assert_eq!(start["match"]["players"][1]["member"], *second);
        for (i, mv) in DRAW.iter().enumerate() {
            let who = if i % 2 == 0 { first } else { second };
            self.play(who, table, mv).await;
        }
        let end = wait_for(&mut self.watcher, |e| {
            e["type"] == "match" && e["table"] == *table && !e["match"]["outcome"].is_null()
        })
        .await;
        assert_eq!(end["match"]["outcome"]["kind"], "draw", "{end}");
    }

    /// Game `k` of `pairing` is won by `winner`: a move each, then the
    /// other resigns.
    async fn win(&mut self, pairing: &Value, k: usize, winner: &Value) {
        let table = &pairing["table"];
        let first = &pairing["players"][k % 2];
        let second = &pairing["players"][1 - k % 2];
        wait_for(&mut self.watcher, game_start(table.clone(), first.clone())).await;
        self.play(first, table, "e2").await;
        self.play(second, table, "e8").await;
        let loser = if winner == first { second } else { first };
        self.client(loser)
            .ok(json!({"type": "resign", "table": table}))
            .await;
        let (winner, loser) = (winner.clone(), loser.clone());
        self.add(&winner, [3, 1, 0, 0]);
        self.add(&loser, [0, 0, 0, 1]);
    }

    /// Everyone's messages so far are read (a `ping` is answered after
    /// them); the players' are dropped.
    async fn sync(&mut self) {
        for p in &mut self.players {
            p.client.ok(json!({"type": "ping"})).await;
            p.client.events.clear();
        }
        self.watcher.ok(json!({"type": "ping"})).await;
    }

    /// The host (the first player).
    fn host(&mut self) -> &mut Client {
        &mut self.players[0].client
    }

    /// The scoreboard shown is the tally.
    fn check_scores(&self, scores: &Value) {
        let shown: BTreeMap<String, [u64; 4]> = scores
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let n = |k: &str| r[k].as_u64().unwrap();
                (
                    r["member"].as_str().unwrap().to_string(),
                    [n("points"), n("wins"), n("draws"), n("losses")],
                )
            })
            .collect();
        assert_eq!(shown, self.tally, "the scoreboard: {scores}");
    }
}

fn tables_of(snapshot: &Value) -> Vec<Value> {
    snapshot["room"]["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            json!({"id": t["id"], "game": t["match"]["id"], "moves": t["match"]["moves"],
                   "teams": t["match"]["teams"], "outcome": t["match"]["outcome"]})
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_five_player_quoridor_tournament_is_played_to_a_champion_through_a_restart() {
    let server = TestServer::start_with(|c| c.autostart_secs = 1).await;
    let (code, host_token) = server
        .new_room(json!({"game": "quoridor", "options": {"mode": "knockout", "move_limit": 3}}))
        .await;
    let mut players = Vec::new();
    for (i, name) in NAMES.iter().enumerate() {
        let token = (i == 0).then_some(host_token.as_str());
        let (mut client, token, snap) = server.join(&code, token, Some(name)).await;
        assert_eq!(snap["you"]["host"], i == 0);
        assert_eq!(snap["room"]["seats"], 32);
        assert_eq!(snap["room"]["options"]["mode"], "knockout");
        assert_eq!(snap["room"]["options"]["move_limit"], 3);
        client.ok(json!({"type": "sit", "seat": i})).await;
        players.push(Player {
            token,
            member: snap["you"]["member"].clone(),
            client,
        });
    }
    let (watcher, watcher_token, _) = server.join(&code, None, Some("Mai")).await;
    let mut cup = Cup {
        code: code.clone(),
        players,
        watcher,
        watcher_token,
        tally: BTreeMap::new(),
    };
    cup.players[1]
        .client
        .refused(json!({"type": "start"}), "not_host")
        .await;

    // ---- Round 1: two matches and a bye.
    cup.host().ok(json!({"type": "start"})).await;
    let started = wait_for(&mut cup.watcher, round_started(1)).await;
    let bracket = started["tournament"].clone();
    let entrants = common::names(&bracket["entrants"]);
    assert_eq!(entrants, NAMES, "everyone seated enters, in seat order");
    let round = &bracket["rounds"][0];
    let pairings = round["pairings"].as_array().unwrap().clone();
    assert_eq!(pairings.len(), 2);
    let bye1 = round["bye"].clone();
    assert!(bye1.is_string(), "{round}");
    let (pa, pb) = (pairings[0].clone(), pairings[1].clone());

    // The watcher opens a second tab: its snapshot lists both tables,
    // each with its spectators (6 online, 2 at the table), and the bracket.
    let (tab, _, snap) = server.join(&code, Some(&cup.watcher_token), None).await;
    assert_eq!(snap["room"]["tournament"], bracket);
    let tables = snap["room"]["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 2);
    for (t, p) in tables.iter().zip(&pairings) {
        assert_eq!(t["id"], p["table"]);
        assert_eq!(t["spectators"], 4, "{t}");
        assert_eq!(t["match"]["players"][0]["member"], p["players"][0]);
        assert_eq!(t["match"]["moves"], json!([]));
    }
    tab.close().await;

    // Refusals: a move at another player's table, options and stop while
    // a round is played.
    let a = pa["players"][0].clone();
    cup.client(&a)
        .refused(
            json!({"type": "move", "move": "e2", "table": pb["table"]}),
            "not_your_turn",
        )
        .await;
    cup.host()
        .refused(
            json!({"type": "options", "options": {"mode": "knockout"}}),
            "game_running",
        )
        .await;
    cup.host()
        .refused(json!({"type": "stop"}), "game_running")
        .await;

    // Table A: drawn, replayed with the other player first, drawn again:
    // the coin decides.
    cup.draw(&pa, 0).await;
    cup.draw(&pa, 1).await;
    let toss = wait_for(&mut cup.watcher, |e| {
        e["type"] == "coin_toss" && e["table"] == pa["table"]
    })
    .await;
    assert_eq!(toss["players"], pa["players"]);
    // In order: the table's `match`, one `scores`, the `coin_toss`, the
    // `tournament` (PROTOCOL.md, "Knockout tournaments").
    let v = toss["v"].as_i64().unwrap();
    let scores = wait_for(&mut cup.watcher, |e| e["v"].as_i64() == Some(v - 1)).await;
    assert_eq!(scores["type"], "scores", "{scores}");
    let bracket = wait_for(&mut cup.watcher, |e| e["v"].as_i64() == Some(v + 1)).await;
    assert_eq!(bracket["type"], "tournament", "{bracket}");
    let coin_winner = toss["winner"].clone();
    assert!(pa["players"].as_array().unwrap().contains(&coin_winner));
    for p in pa["players"].as_array().unwrap().clone() {
        cup.add(&p, [0, 0, 1, 0]);
    }
    // Table B: drawn, then its second player wins the replay.
    cup.draw(&pb, 0).await;
    let b_winner = pb["players"][1].clone();
    cup.win(&pb, 1, &b_winner).await;

    // The watcher got the games of both tables.
    cup.sync().await;
    let seen: BTreeSet<String> = cup
        .watcher
        .events
        .iter()
        .filter(|e| e["type"] == "match")
        .map(|e| e["table"].as_str().unwrap().to_string())
        .collect();
    let both: BTreeSet<String> = [&pa, &pb]
        .iter()
        .map(|p| p["table"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(seen, both);
    cup.watcher.events.retain(|e| e["type"] != "match");

    // Between rounds: the bracket says so, the countdown runs, options
    // stay refused.
    let between = wait_for(&mut cup.watcher, status_is(1, "between_rounds")).await;
    let r1 = &between["tournament"]["rounds"][0];
    assert_eq!(
        r1["pairings"][0]["state"],
        json!({"kind": "coin_toss", "winner": coin_winner})
    );
    assert_eq!(
        r1["pairings"][0]["games"],
        json!([{"kind": "draw"}, {"kind": "draw"}])
    );
    assert_eq!(
        r1["pairings"][1]["games"],
        json!([{"kind": "draw"}, {"kind": "win", "winner": b_winner}])
    );
    let countdown = wait_for(&mut cup.watcher, |e| {
        e["type"] == "autostart" && e["autostart"]["remaining_ms"].is_u64()
    })
    .await;
    assert!(countdown["autostart"]["remaining_ms"].as_u64().unwrap() <= 1_000);
    cup.host()
        .refused(
            json!({"type": "options", "options": {"mode": "knockout", "move_limit": 5}}),
            "game_running",
        )
        .await;

    // ---- Round 2 starts by itself: the three who advanced, a bye for
    // someone who had none.
    let started = wait_for(&mut cup.watcher, round_started(2)).await;
    let bracket2 = started["tournament"].clone();
    let round2 = &bracket2["rounds"][1];
    let mut field: Vec<String> = round2["pairings"][0]["players"]
        .as_array()
        .unwrap()
        .iter()
        .chain([&round2["bye"]])
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    field.sort();
    let mut advanced = vec![
        coin_winner.as_str().unwrap().to_string(),
        b_winner.as_str().unwrap().to_string(),
        bye1.as_str().unwrap().to_string(),
    ];
    advanced.sort();
    assert_eq!(field, advanced);
    assert_ne!(round2["bye"], bye1);
    let p2 = round2["pairings"][0].clone();
    let (first, second) = (p2["players"][0].clone(), p2["players"][1].clone());
    let table2 = p2["table"].clone();
    wait_for(&mut cup.watcher, game_start(table2.clone(), first.clone())).await;
    cup.play(&first, &table2, "e2").await;
    cup.play(&second, &table2, "e8").await;
    cup.play(&first, &table2, "e3").await;
    cup.sync().await;
    let (_, _, before) = server.join(&code, Some(&cup.watcher_token), None).await;
    assert_eq!(before["room"]["tournament"], bracket2);
    assert_eq!(tables_of(&before)[0]["moves"], json!(["e2", "e8", "e3"]));
    cup.check_scores(&before["room"]["scores"]);

    // ---- The server restarts in the middle of round 2.
    let Cup {
        players, watcher, ..
    } = cup;
    let tokens: Vec<(Value, String)> = players.into_iter().map(|p| (p.member, p.token)).collect();
    drop(watcher);
    let dir = server.stop().await;
    let server = TestServer::start_in(dir, |c| c.autostart_secs = 1).await;
    let mut players = Vec::new();
    for (i, (member, token)) in tokens.into_iter().enumerate() {
        let (client, token, snap) = server.join(&code, Some(&token), None).await;
        assert_eq!(snap["you"]["member"], member, "the same member");
        assert_eq!(snap["you"]["host"], i == 0);
        assert_eq!(snap["you"]["name"], NAMES[i]);
        players.push(Player {
            token,
            member,
            client,
        });
    }
    let (watcher, _, after) = server.join(&code, Some(&cup.watcher_token), None).await;
    // Nothing lost: the bracket, the table, its game and moves, the
    // scoreboard.
    assert_eq!(after["room"]["tournament"], before["room"]["tournament"]);
    assert_eq!(tables_of(&after), tables_of(&before));
    assert_eq!(after["room"]["tables"][0]["match"]["to_play"], second);
    let mut cup = Cup {
        code: cup.code,
        players,
        watcher,
        watcher_token: cup.watcher_token,
        tally: cup.tally,
    };
    cup.check_scores(&after["room"]["scores"]);

    // The match goes on where it was: the second player moves, then the
    // first resigns.
    cup.play(&second, &table2, "e9").await;
    let moved = wait_for(&mut cup.watcher, |e| {
        e["type"] == "match" && e["table"] == table2 && e["move"] == "e9"
    })
    .await;
    let held = after["room"]["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == table2)
        .expect("table 2 in the snapshot")["match"]
        .clone();
    assert_eq!(
        follow(&held, &moved)["moves"],
        json!(["e2", "e8", "e3", "e9"])
    );
    cup.client(&first)
        .ok(json!({"type": "resign", "table": table2}))
        .await;
    cup.add(&second, [3, 1, 0, 0]);
    cup.add(&first, [0, 0, 0, 1]);
    wait_for(&mut cup.watcher, status_is(2, "between_rounds")).await;

    // ---- The final starts by the countdown: drawn once, then won by its
    // first player in the replay.
    let started = wait_for(&mut cup.watcher, round_started(3)).await;
    let f = started["tournament"]["rounds"][2]["pairings"][0].clone();
    assert_eq!(started["tournament"]["rounds"][2]["bye"], Value::Null);
    let mut finalists: Vec<&Value> = f["players"].as_array().unwrap().iter().collect();
    finalists.sort_by_key(|m| m.as_str().unwrap().to_string());
    let mut expected = vec![&second, &round2["bye"]];
    expected.sort_by_key(|m| m.as_str().unwrap().to_string());
    assert_eq!(finalists, expected);
    cup.draw(&f, 0).await;
    let champion = f["players"][0].clone();
    cup.win(&f, 1, &champion).await;
    let done = wait_for(&mut cup.watcher, |e| {
        e["type"] == "tournament" && kind(&e["tournament"]) == "finished"
    })
    .await;
    assert_eq!(
        done["tournament"]["status"],
        json!({"kind": "finished", "champion": champion})
    );
    cup.add(&champion, [10, 0, 0, 0]);

    // The final scoreboard, by the rules: 3 a match won, 10 more for the
    // champion, a draw each for the coin toss and nothing for its winner.
    cup.sync().await;
    let scores = cup.watcher.latest("scores").expect("a scores event")["scores"].clone();
    cup.check_scores(&scores);
    let (_, _, last) = server.join(&code, Some(&cup.watcher_token), None).await;
    cup.check_scores(&last["room"]["scores"]);
    assert_eq!(last["room"]["tournament"], done["tournament"]);
    let row = |m: &Value| cup.tally[m.as_str().unwrap()];
    let champ = row(&champion);
    assert_eq!(champ[0], 3 * champ[1] + 10, "{}", cup.name(&champion));
    let coin = row(&coin_winner);
    assert!(coin[2] >= 1, "the coin toss counts a draw");
    let bonus = if coin_winner == champion { 10 } else { 0 };
    assert_eq!(coin[0], 3 * coin[1] + bonus, "the coin scores nothing");
    // Nothing left to play: the tables show the final, no countdown.
    assert_eq!(last["room"]["tables"].as_array().unwrap().len(), 1);
    assert_eq!(last["room"]["autostart"]["remaining_ms"], Value::Null);
}

#[tokio::test]
async fn the_host_stops_a_tournament_between_rounds_and_no_round_follows() {
    let server = TestServer::start_with(|c| c.autostart_secs = 1).await;
    let (code, host_token) = server
        .new_room(json!({"game": "crossyray", "options": {"mode": "knockout"}}))
        .await;
    let mut clients = Vec::new();
    let mut members = Vec::new();
    for (i, name) in NAMES[..3].iter().enumerate() {
        let token = (i == 0).then_some(host_token.as_str());
        let (mut client, _, snap) = server.join(&code, token, Some(name)).await;
        client.ok(json!({"type": "sit", "seat": i})).await;
        members.push(snap["you"]["member"].clone());
        clients.push(client);
    }
    clients[0].ok(json!({"type": "start"})).await;
    let started = wait_for(&mut clients[0], round_started(1)).await;
    let p = started["tournament"]["rounds"][0]["pairings"][0].clone();
    let loser = members.iter().position(|m| *m == p["players"][1]).unwrap();
    clients[loser]
        .ok(json!({"type": "resign", "table": p["table"]}))
        .await;
    wait_for(&mut clients[0], status_is(1, "between_rounds")).await;
    // A knockout room plays its bracket: no rematch, between rounds
    // either, for the winner as for the loser (PROTOCOL.md).
    for c in [0, 1, 2] {
        clients[c]
            .refused(json!({"type": "rematch"}), "no_game")
            .await;
    }
    clients[1]
        .refused(json!({"type": "stop"}), "not_host")
        .await;
    clients[0].ok(json!({"type": "stop"})).await;
    let stopped = wait_for(&mut clients[0], |e| {
        e["type"] == "tournament" && kind(&e["tournament"]) == "stopped"
    })
    .await;
    assert_eq!(stopped["tournament"]["rounds"].as_array().unwrap().len(), 1);
    clients[0].refused(json!({"type": "stop"}), "no_game").await;
    // The countdown is gone: no round 2, and the points won stay.
    clients[0]
        .silent_for("tournament", std::time::Duration::from_millis(1_500))
        .await;
    let (_, _, snap) = server.join(&code, None, Some("Mai")).await;
    assert_eq!(snap["room"]["tournament"], stopped["tournament"]);
    let winner = &p["players"][0];
    let row = snap["room"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["member"] == *winner)
        .unwrap()
        .clone();
    assert_eq!(
        (row["points"].as_u64(), row["wins"].as_u64()),
        (Some(3), Some(1))
    );
}

/// Computers enter a knockout tournament like people: a host alone seats
/// three of them (Beginner), resigns the first match; the computers play
/// their matches to the end, the next rounds start by themselves, and the
/// tournament finishes with a computer as champion.
#[tokio::test]
async fn computers_play_a_knockout_tournament_to_its_champion() {
    let server = TestServer::start_with(|c| {
        c.autostart_secs = 1;
        c.bot_ms = 40;
    })
    .await;
    let (code, token) = server
        .new_room(json!({"game": "quoridor", "options": {"mode": "knockout", "move_limit": 40}}))
        .await;
    let (mut host, _, snap) = server.join(&code, Some(&token), Some("Minh")).await;
    let me = snap["you"]["member"].clone();
    host.ok(json!({"type": "sit", "seat": 0})).await;
    for seat in 1..4 {
        host.ok(json!({"type": "computer", "seat": seat, "level": "beginner"}))
            .await;
    }
    host.ok(json!({"type": "start"})).await;
    let started = wait_for(&mut host, round_started(1)).await;
    let pairings = started["tournament"]["rounds"][0]["pairings"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(pairings.len(), 2, "{started}");
    let mine = pairings
        .iter()
        .find(|p| p["players"].as_array().unwrap().contains(&me))
        .expect("the host plays round 1");
    host.ok(json!({"type": "resign", "table": mine["table"]}))
        .await;
    let done = wait_for(&mut host, |e| {
        e["type"] == "tournament" && kind(&e["tournament"]) == "finished"
    })
    .await;
    let b = &done["tournament"];
    assert_eq!(b["rounds"].as_array().unwrap().len(), 2, "{b}");
    let champion = &b["status"]["champion"];
    assert_ne!(*champion, me);
    let (_, _, snap) = server.join(&code, None, Some("Lan")).await;
    let winner = common::member(&snap["room"], champion).expect("the champion is a member");
    assert_eq!(winner["computer"], "beginner", "{winner}");
}
