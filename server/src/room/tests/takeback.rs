//! `takeback`: asked, answered, granted at once by the computer, refused
//! where it does not belong, stored, and brought back by a restart.

use rules::Level;

use super::game::Recorded;
use super::restore::assert_same_room;
use super::*;

fn takeback(action: DrawAction) -> Command {
    Command::Takeback(cmd::Takeback {
        action,
        table: None,
    })
}

fn draw(action: DrawAction) -> Command {
    Command::Draw(cmd::Draw {
        action,
        table: None,
    })
}

/// A Jungle game between Minh (side 0) and Lan, recorded for a restore.
fn jungle() -> (Recorded, MemberId, MemberId) {
    let mut room = Recorded::new(super::room(GameKind::Jungle, Value::Null));
    let host = room.hello(greeting(HOST, Some("Minh"), None), 0);
    let guest = room.hello(greeting(&token(1), Some("Lan"), None), 0);
    room.ok(host, sit(0), 0);
    room.ok(guest, sit(1), 0);
    room.ok(host, start(Order::Seats), 0);
    (room, host, guest)
}

#[test]
fn an_accepted_takeback_goes_back_before_the_askers_move_and_survives_a_restart() {
    let (mut room, host, guest) = jungle();
    assert_eq!(
        code(&mut room.state, host, takeback(DrawAction::Offer), 1),
        Code::NoTakeback,
        "nothing to take back yet"
    );
    room.ok(host, mv("8 a3-a4"), 1_000);
    let before_reply = current(&room.state).game.clone();
    room.ok(guest, mv("8 g7-g6"), 2_000);
    // Minh asks: everyone hears of it, and the match says so.
    let effects = room.ok(host, takeback(DrawAction::Offer), 3_000);
    assert_eq!(
        sent(&effects)[0],
        json!({"type": "takeback", "v": room.state.version, "table": room.state.tables[0].id,
               "kind": "offer", "side": 0, "member": host})
    );
    assert_eq!(current(&room.state).takeback.standing, Some(rules::Side(0)));
    assert_eq!(
        code(&mut room.state, host, takeback(DrawAction::Accept), 3_000),
        Code::NoOffer
    );
    assert_eq!(
        code(&mut room.state, host, takeback(DrawAction::Offer), 3_000),
        Code::NoTakeback
    );

    // Lan accepts: Lan's reply and Minh's move are gone; Minh is to move.
    let effects = room.ok(guest, takeback(DrawAction::Accept), 4_000);
    assert_eq!(tags(&effects), ["store:entry", "send:match/takeback"]);
    assert_eq!(entries(&effects)[0].entry, Entry::Takeback { plies: 2 });
    let m = current(&room.state);
    assert!(m.moves.is_empty() && m.move_sides.is_empty());
    assert_eq!(m.game.to_move(), Some(rules::Side(0)));
    assert_eq!(m.takeback.standing, None);
    assert_eq!(sent(&effects)[0]["match"]["moves"], json!([]));
    assert_eq!(sent(&effects)[0]["match"]["legal"], json!(m.game.legal()));
    // The game goes on from there, and a restart brings it back as it is.
    room.ok(host, mv("8 a3-a4"), 5_000);
    let json = |g: &crate::games::AnyGame| serde_json::to_value(g).unwrap();
    assert_eq!(json(&current(&room.state).game), json(&before_reply));
    let (restored, _) = RoomState::restore(room.store.saved(), config(), 9_000);
    assert_same_room(&room.state, 5_000, &restored, 9_000);
    assert_eq!(current(&restored).moves, ["8 a3-a4"]);
}

#[test]
fn a_takeback_asked_on_the_opponents_turn_removes_one_ply_and_a_decline_or_a_move_ends_the_request()
{
    let (mut room, host, guest) = jungle();
    room.ok(host, mv("8 a3-a4"), 1_000);
    room.ok(host, takeback(DrawAction::Offer), 1_500);
    // Declined: told to everyone, and Minh may ask again only after a move.
    let effects = room.ok(guest, takeback(DrawAction::Decline), 2_000);
    assert_eq!(sent(&effects)[0]["kind"], "decline");
    assert_eq!(sent(&effects)[0]["side"], 1);
    assert_eq!(
        code(&mut room.state, guest, takeback(DrawAction::Accept), 2_000),
        Code::NoOffer
    );
    assert_eq!(
        code(&mut room.state, host, takeback(DrawAction::Offer), 2_100),
        Code::NoTakeback
    );
    room.ok(guest, mv("8 g7-g6"), 3_000);
    room.ok(host, mv("1 g3-g4"), 4_000);
    // Minh asks on Lan's turn: Lan's move ends the request.
    room.ok(host, takeback(DrawAction::Offer), 4_500);
    assert_eq!(current(&room.state).takeback.standing, Some(rules::Side(0)));
    room.ok(guest, mv("8 g6-g5"), 5_000);
    assert_eq!(
        current(&room.state).takeback.standing,
        None,
        "a move ends it"
    );
    room.ok(host, mv("8 a4-a5"), 6_000);
    // Minh asks on Lan's turn: only Minh's own move goes.
    room.ok(host, takeback(DrawAction::Offer), 6_500);
    room.ok(guest, takeback(DrawAction::Accept), 7_000);
    assert_eq!(
        current(&room.state).moves,
        ["8 a3-a4", "8 g7-g6", "1 g3-g4", "8 g6-g5"]
    );
}

#[test]
fn the_computer_grants_a_takeback_at_once_even_in_a_rated_room() {
    let mut state = room(GameKind::CrossyRay, Value::Null);
    let host = join(&mut state, HOST, Some("Minh"), 0);
    ok(&mut state, host, sit(0), 0);
    let computer = Command::Computer(cmd::Computer {
        seat: 1,
        level: Some(Level::Beginner),
    });
    ok(&mut state, host, computer, 0);
    ok(
        &mut state,
        host,
        Command::Rated(cmd::Rated { rated: true }),
        0,
    );
    ok(&mut state, host, start(Order::Seats), 0);
    let effects = ok(&mut state, host, mv("f4"), 1_000);
    assert!(
        effects.iter().any(|e| matches!(e, Effect::Think { .. })),
        "the computer thinks"
    );
    // Asked while the computer thinks: Minh's move goes, the search stops.
    let effects = ok(&mut state, host, takeback(DrawAction::Offer), 1_500);
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::StopThinking { .. })),
        "{:?}",
        tags(&effects)
    );
    assert!(current(&state).moves.is_empty());
    assert_eq!(current(&state).game.to_move(), Some(rules::Side(0)));
    // Answered by the computer, then asked: both plies go.
    ok(&mut state, host, mv("f4"), 2_000);
    let table = state.tables[0].id;
    let think = state.tables[0].thinking.unwrap();
    state.bot_move(table, think, None, 3_000);
    assert_eq!(current(&state).moves.len(), 2);
    ok(&mut state, host, takeback(DrawAction::Offer), 4_000);
    assert!(current(&state).moves.is_empty());
}

#[test]
fn no_takebacks_between_people_in_a_rated_room_nor_from_a_spectator() {
    let (mut state, host, guest) = two_seated(GameKind::Jungle, Value::Null, 0);
    ok(
        &mut state,
        host,
        Command::Rated(cmd::Rated { rated: true }),
        0,
    );
    let watcher = join(&mut state, &token(5), Some("Vy"), 0);
    ok(&mut state, host, start(Order::Seats), 0);
    ok(&mut state, host, mv("8 a3-a4"), 1_000);
    let refusal = refused(&mut state, host, takeback(DrawAction::Offer), 2_000);
    assert_eq!(refusal.code, Code::NoTakeback);
    assert!(refusal.message.contains("rated"), "{}", refusal.message);
    assert_eq!(
        code(&mut state, watcher, takeback(DrawAction::Offer), 2_000),
        Code::NoGame
    );
    assert_eq!(
        code(&mut state, guest, takeback(DrawAction::Offer), 2_000),
        Code::NoTakeback
    );
}

/// "A side asks at most once between two moves" holds across a takeback:
/// a move played after one lets the side ask again, though the game is
/// back at the same length (an outside check found it refused); a draw
/// offer the same.
#[test]
fn after_a_takeback_a_new_move_lets_the_side_ask_again() {
    let (mut room, host, guest) = jungle();
    room.ok(host, mv("8 a3-a4"), 1_000);
    room.ok(host, takeback(DrawAction::Offer), 1_500);
    room.ok(guest, takeback(DrawAction::Accept), 2_000);
    assert!(current(&room.state).moves.is_empty());
    room.ok(host, mv("8 a3-a4"), 3_000);
    room.ok(host, takeback(DrawAction::Offer), 3_500);
    assert_eq!(current(&room.state).takeback.standing, Some(rules::Side(0)));
    room.ok(guest, takeback(DrawAction::Decline), 4_000);
    // The draw offer too: offered, taken back past, offered again.
    room.ok(guest, mv("8 g7-g6"), 5_000);
    room.ok(host, draw(DrawAction::Offer), 5_100);
    room.ok(guest, draw(DrawAction::Decline), 5_200);
    assert_eq!(
        code(&mut room.state, host, draw(DrawAction::Offer), 5_300),
        Code::DrawOffered,
        "no move since"
    );
    room.ok(guest, takeback(DrawAction::Offer), 5_400);
    room.ok(host, takeback(DrawAction::Accept), 5_500);
    room.ok(guest, mv("8 g7-g6"), 6_000);
    room.ok(host, draw(DrawAction::Offer), 6_100);
    assert_eq!(current(&room.state).draw.standing, Some(rules::Side(0)));
}

/// Past the 100th takeback a request is refused when it is made, with no
/// event and nothing standing (an outside check found it accepted and
/// then refused at the answer).
#[test]
fn past_the_last_takeback_a_request_is_refused_when_asked() {
    let (mut room, host, guest) = jungle();
    let mut t = 1_000;
    for _ in 0..crate::game_log::MAX_TAKEBACKS {
        room.ok(host, mv("8 a3-a4"), t);
        room.ok(host, takeback(DrawAction::Offer), t + 1);
        room.ok(guest, takeback(DrawAction::Accept), t + 2);
        t += 10;
    }
    room.ok(host, mv("8 a3-a4"), t);
    let version = room.state.version;
    assert_eq!(
        code(&mut room.state, host, takeback(DrawAction::Offer), t + 1),
        Code::NoTakeback
    );
    assert_eq!(room.state.version, version, "no event");
    assert_eq!(current(&room.state).takeback.standing, None);
}
