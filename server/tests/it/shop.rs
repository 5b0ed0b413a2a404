//! The cosmetics shop over the real HTTP API: an item is paid for once,
//! never without the coins, chosen only when owned, and the account's
//! coins, purchases and choices survive a restart with everything else
//! the account has.

use crate::common;

use common::browser::{Answer, Browser};
use common::TestServer;
use serde_json::{json, Value};

/// `POST /api/shop/buy` of `item` from `b`.
async fn buy(b: &mut Browser, item: &str) -> Answer {
    b.post("/api/shop/buy", json!({"item": item})).await
}

/// `POST /api/shop/choose` of `item` from `b`.
async fn choose(b: &mut Browser, item: &str) -> Answer {
    b.post("/api/shop/choose", json!({"item": item})).await
}

/// Registers and checks in: 10 coins.
async fn with_ten_coins(server: &TestServer, username: &str) -> Browser {
    let mut b = Browser::new(server);
    b.register(username, "password1").await;
    let c = b.post("/api/checkin", json!({})).await;
    assert_eq!(c.body["coins"], 10, "{}", c.body);
    b
}

/// A new account (`username`) that checked in and bought `item` with
/// its 10 coins: the browser and the answer's body.
async fn with_bought(server: &TestServer, username: &str, item: &str) -> (Browser, Value) {
    let mut b = with_ten_coins(server, username).await;
    let bought = buy(&mut b, item).await;
    assert_eq!(bought.status, 200, "{}", bought.body);
    (b, bought.body)
}

fn owned(shop: &Value, id: &str) -> bool {
    shop["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|i| i["id"] == id)
        .unwrap_or_else(|| panic!("no item {id}"))["owned"]
        .as_bool()
        .expect("owned")
}

#[tokio::test]
async fn the_shop_lists_three_board_themes_per_game_and_two_jungle_piece_styles() {
    let server = TestServer::start().await;
    let mut b = with_ten_coins(&server, "lister").await;
    let shop = b.get("/api/shop").await;
    assert_eq!(shop.status, 200, "{}", shop.body);
    assert_eq!(shop.body["coins"], 10);
    let items = shop.body["items"].as_array().expect("items");
    for (slot, least) in [
        ("crossyray_board", 3),
        ("jungle_board", 3),
        ("quoridor_board", 3),
        ("jungle_pieces", 2),
    ] {
        let of: Vec<_> = items.iter().filter(|i| i["slot"] == slot).collect();
        assert!(of.len() >= least, "{slot}: {of:?}");
        // Each slot's default is free and owned; the rest cost coins.
        let free: Vec<_> = of.iter().filter(|i| i["price"] == 0).collect();
        assert_eq!(free.len(), 1, "{slot}");
        assert_eq!(free[0]["owned"], true);
        assert_eq!(shop.body["chosen"][slot], free[0]["id"]);
        assert!(of
            .iter()
            .filter(|i| i["price"] != 0)
            .all(|i| i["owned"] == false && i["price"].as_i64() > Some(0)));
    }
    assert!(items.iter().any(|i| i["id"] == "jungle-drawn"));
    assert!(items.iter().any(|i| i["id"] == "jungle-emoji"));
    // Signed out: no shop, no buying, no choosing.
    let mut guest = Browser::new(&server);
    assert_eq!(guest.get("/api/shop").await.status, 401);
    let buy = buy(&mut guest, "crossyray-slate").await;
    assert_eq!(buy.status, 401);
    let choose = choose(&mut guest, "crossyray-classic").await;
    assert_eq!(choose.status, 401);
}

#[tokio::test]
async fn buying_a_theme_takes_its_coins_once() {
    let server = TestServer::start().await;
    let (mut b, bought) = with_bought(&server, "buyer", "quoridor-stone").await;
    assert_eq!(bought["coins"], 0);
    assert_eq!(b.get("/api/me").await.body["coins"], 0);
    assert!(owned(&b.get("/api/shop").await.body, "quoridor-stone"));

    // Again: refused, and no coin moves.
    let again = buy(&mut b, "quoridor-stone").await;
    assert_eq!(again.status, 409, "{}", again.body);
    assert_eq!(again.body["error"], "already_owned");
    // A default is everyone's already.
    let free = buy(&mut b, "quoridor-classic").await;
    assert_eq!(free.body["error"], "already_owned");
    assert_eq!(b.get("/api/me").await.body["coins"], 0);
}

#[tokio::test]
async fn an_item_cannot_be_bought_without_the_coins_or_chosen_without_buying() {
    let server = TestServer::start().await;
    let mut b = Browser::new(&server);
    b.register("pauper", "password1").await;
    let broke = buy(&mut b, "jungle-drawn").await;
    assert_eq!(broke.status, 409, "{}", broke.body);
    assert_eq!(broke.body["error"], "not_enough_coins");
    let shop = b.get("/api/shop").await.body;
    assert!(!owned(&shop, "jungle-drawn"));
    assert_eq!(shop["coins"], 0);

    let not_owned = choose(&mut b, "jungle-drawn").await;
    assert_eq!(not_owned.status, 403, "{}", not_owned.body);
    assert_eq!(not_owned.body["error"], "not_owned");
    assert_eq!(
        b.get("/api/me").await.body["cosmetics"]["jungle_pieces"],
        "jungle-emoji"
    );

    // Unknown items and bad bodies change nothing.
    for body in [
        json!({"item": "jungle-gold"}),
        json!({}),
        json!({"item": 7}),
    ] {
        let a = b.post("/api/shop/buy", body.clone()).await;
        assert_eq!(a.status, 400, "{body}: {}", a.body);
        let a = b.post("/api/shop/choose", body.clone()).await;
        assert_eq!(a.status, 400, "{body}: {}", a.body);
    }
    assert_eq!(
        buy(&mut b, "jungle-gold").await.body["error"],
        "unknown_item"
    );
}

#[tokio::test]
async fn a_choice_is_the_accounts_own_and_a_restart_loses_nothing() {
    let server = TestServer::start().await;
    let (mut b, _) = with_bought(&server, "chooser", "jungle-drawn").await;
    let chose = choose(&mut b, "jungle-drawn").await;
    assert_eq!(chose.status, 200, "{}", chose.body);
    assert_eq!(chose.body["chosen"]["jungle_pieces"], "jungle-drawn");
    // A default can be chosen back at any time, and the bought one again.
    let back = choose(&mut b, "jungle-emoji").await;
    assert_eq!(back.body["chosen"]["jungle_pieces"], "jungle-emoji");
    let chose = choose(&mut b, "jungle-drawn").await;
    assert_eq!(chose.body["chosen"]["jungle_pieces"], "jungle-drawn");
    let me = b.get("/api/me").await.body;
    assert_eq!(me["cosmetics"]["jungle_pieces"], "jungle-drawn");
    assert_eq!(me["cosmetics"]["jungle_board"], "jungle-classic");

    // Someone else's choices are untouched.
    let mut other = with_ten_coins(&server, "neighbour").await;
    let theirs = other.get("/api/me").await.body;
    assert_eq!(theirs["cosmetics"]["jungle_pieces"], "jungle-emoji");
    assert!(!owned(&other.get("/api/shop").await.body, "jungle-drawn"));

    // A restart: the accounts, their sessions and passwords, coins,
    // purchases and choices are all there.
    let dir = server.stop().await;
    let server = TestServer::start_in(dir, |_| {}).await;
    b.base = server.base.clone();
    other.base = server.base.clone();
    let me = b.get("/api/me").await;
    assert_eq!(me.status, 200, "{}", me.body);
    assert_eq!(me.body["username"], "chooser");
    assert_eq!(me.body["coins"], 0);
    assert_eq!(me.body["checked_in_today"], true);
    assert_eq!(me.body["cosmetics"]["jungle_pieces"], "jungle-drawn");
    assert!(owned(&b.get("/api/shop").await.body, "jungle-drawn"));
    let again = buy(&mut b, "jungle-drawn").await;
    assert_eq!(again.body["error"], "already_owned");
    let theirs = other.get("/api/me").await.body;
    assert_eq!(theirs["coins"], 10);
    assert_eq!(theirs["cosmetics"]["jungle_pieces"], "jungle-emoji");
    // The password still logs in on a new browser.
    let mut fresh = Browser::logged_in(&server, "chooser", "password1").await;
    assert_eq!(
        fresh.get("/api/me").await.body["cosmetics"]["jungle_pieces"],
        "jungle-drawn"
    );
}
