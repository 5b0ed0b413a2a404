//! The cosmetics shop: board themes for each game and Jungle's piece
//! styles, bought once with coins and chosen at any time. A choice is the
//! account's own: the server only stores and returns it (`GET /api/me`,
//! `GET /api/shop`), and each browser draws its boards with its own
//! account's choice, so nobody else's board changes.
//!
//! The colours themselves live in `web/css/site.css`, one block of CSS
//! custom properties per theme; the item ids here are the names there.

use axum::extract::{FromRequest, FromRequestParts, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::{internal, not_signed_in, Session};
use crate::app::error::{json_error, ApiJson};
use crate::app::state::App;
use crate::model::now_millis;
use crate::store::{SignedIn, SpendRefused};

/// Where an item goes: each slot holds one chosen item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    CrossyRayBoard,
    JungleBoard,
    QuoridorBoard,
    JunglePieces,
}

impl Slot {
    pub const ALL: [Slot; 4] = [
        Slot::CrossyRayBoard,
        Slot::JungleBoard,
        Slot::QuoridorBoard,
        Slot::JunglePieces,
    ];

    /// The slot's name in the API and the database.
    pub fn name(self) -> &'static str {
        match self {
            Slot::CrossyRayBoard => "crossyray_board",
            Slot::JungleBoard => "jungle_board",
            Slot::QuoridorBoard => "quoridor_board",
            Slot::JunglePieces => "jungle_pieces",
        }
    }
}

/// One thing the shop sells (or gives: the defaults cost nothing and
/// everyone owns them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item {
    pub id: &'static str,
    pub slot: Slot,
    pub price: i64,
}

/// The price of every item that is not a default: one day's check-in.
pub const PRICE: i64 = 10;

/// Everything in the shop, each slot's default first.
pub const CATALOGUE: [Item; 11] = [
    item("crossyray-classic", Slot::CrossyRayBoard, 0),
    item("crossyray-slate", Slot::CrossyRayBoard, PRICE),
    item("crossyray-meadow", Slot::CrossyRayBoard, PRICE),
    item("jungle-classic", Slot::JungleBoard, 0),
    item("jungle-savanna", Slot::JungleBoard, PRICE),
    item("jungle-glacier", Slot::JungleBoard, PRICE),
    item("quoridor-classic", Slot::QuoridorBoard, 0),
    item("quoridor-stone", Slot::QuoridorBoard, PRICE),
    item("quoridor-sea", Slot::QuoridorBoard, PRICE),
    item("jungle-emoji", Slot::JunglePieces, 0),
    item("jungle-drawn", Slot::JunglePieces, PRICE),
];

const fn item(id: &'static str, slot: Slot, price: i64) -> Item {
    Item { id, slot, price }
}

/// The catalogue's item called `id`.
pub fn find(id: &str) -> Option<Item> {
    CATALOGUE.iter().copied().find(|i| i.id == id)
}

/// The slot's default: free and owned by everyone.
pub fn default_of(slot: Slot) -> Item {
    CATALOGUE
        .iter()
        .copied()
        .find(|i| i.slot == slot && i.price == 0)
        .expect("every slot has a free default")
}

/// The account's choice for every slot, defaults filled in: stored
/// choices of items no longer in the catalogue fall back to the default.
pub fn chosen_map(stored: &[(String, String)]) -> Map<String, Value> {
    Slot::ALL
        .iter()
        .map(|&slot| {
            let id = stored
                .iter()
                .find(|(s, _)| s == slot.name())
                .and_then(|(_, id)| find(id))
                .filter(|i| i.slot == slot)
                .unwrap_or_else(|| default_of(slot))
                .id;
            (slot.name().to_string(), Value::from(id))
        })
        .collect()
}

#[derive(Deserialize)]
struct ItemRequest {
    #[serde(default, deserialize_with = "crate::app::error::default_if_null")]
    item: String,
}

/// A buy or choose request: the signed-in account and the catalogue item
/// its body names (`{"item": id}`). Refused before the handler runs: a
/// body that cannot be read, no session, an item not in the catalogue.
pub struct ItemAsked {
    me: SignedIn,
    item: Item,
}

impl FromRequest<App> for ItemAsked {
    type Rejection = Response;

    async fn from_request(req: Request, app: &App) -> Result<Self, Response> {
        let (mut parts, body) = req.into_parts();
        let current = Session::from_request_parts(&mut parts, app).await?;
        let ApiJson(req) =
            ApiJson::<ItemRequest>::from_request(Request::from_parts(parts, body), app).await?;
        let me = current.signed_in.ok_or_else(not_signed_in)?;
        let item = find(&req.item).ok_or_else(|| {
            json_error(
                StatusCode::BAD_REQUEST,
                "unknown_item",
                format!(
                    "The shop has no item {:?}.",
                    req.item.chars().take(40).collect::<String>()
                ),
            )
        })?;
        Ok(ItemAsked { me, item })
    }
}

/// `GET /api/shop`: every item with its price and whether the account
/// owns it, the account's choices and its coins.
pub async fn shop(State(app): State<App>, current: Session) -> Response {
    let Some(me) = current.signed_in else {
        return not_signed_in();
    };
    let store = app.registry.store();
    let id = me.account.id;
    let (owned, chosen, coins) =
        match tokio::try_join!(store.owned(id), store.chosen(id), store.coins(id)) {
            Ok((owned, chosen, (coins, _, _))) => (owned, chosen, coins),
            Err(e) => return internal(e),
        };
    Json(json!({
        "coins": coins,
        "items": CATALOGUE.iter().map(|i| json!({
            "id": i.id,
            "slot": i.slot.name(),
            "price": i.price,
            "owned": i.price == 0 || owned.iter().any(|o| o == i.id),
        })).collect::<Vec<_>>(),
        "chosen": chosen_map(&chosen),
    }))
    .into_response()
}

/// `POST /api/shop/buy {"item"}`: buys an item once; the coins and the
/// ledger row in one transaction.
pub async fn buy(State(app): State<App>, ItemAsked { me, item }: ItemAsked) -> Response {
    let owned_already = || {
        json_error(
            StatusCode::CONFLICT,
            "already_owned",
            "You already own that.",
        )
    };
    if item.price == 0 {
        return owned_already();
    }
    let store = app.registry.store();
    // Asked first only for the clearer answer; the purchase's own
    // transaction is what keeps two racing requests from both paying.
    match store.owned(me.account.id).await {
        Ok(owned) if owned.iter().any(|o| o == item.id) => return owned_already(),
        Ok(_) => {}
        Err(e) => return internal(e),
    }
    match store
        .buy(me.account.id, item.id, item.price, now_millis())
        .await
    {
        Ok(Ok(coins)) => {
            tracing::info!(account = me.account.id, item = item.id, "bought");
            Json(json!({"item": item.id, "coins": coins})).into_response()
        }
        Ok(Err(SpendRefused::AlreadyDone)) => owned_already(),
        Ok(Err(SpendRefused::TooFew)) => json_error(
            StatusCode::CONFLICT,
            "not_enough_coins",
            format!("That costs {} coins; you have fewer.", item.price),
        ),
        Err(e) => internal(e),
    }
}

/// `POST /api/shop/choose {"item"}`: puts an owned item (or a default)
/// in its slot.
pub async fn choose(State(app): State<App>, ItemAsked { me, item }: ItemAsked) -> Response {
    let store = app.registry.store();
    let id = me.account.id;
    if item.price > 0 {
        match store.owned(id).await {
            Ok(owned) if owned.iter().any(|o| o == item.id) => {}
            Ok(_) => {
                return json_error(
                    StatusCode::FORBIDDEN,
                    "not_owned",
                    "Buy that first, then choose it.",
                )
            }
            Err(e) => return internal(e),
        }
    }
    if let Err(e) = store.choose(id, item.slot.name(), item.id).await {
        return internal(e);
    }
    match store.chosen(id).await {
        Ok(chosen) => Json(json!({"chosen": chosen_map(&chosen)})).into_response(),
        Err(e) => internal(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_slot_has_one_free_default_and_at_least_one_more() {
        for slot in Slot::ALL {
            let items: Vec<_> = CATALOGUE.iter().filter(|i| i.slot == slot).collect();
            assert_eq!(items.iter().filter(|i| i.price == 0).count(), 1, "{slot:?}");
            assert!(items.len() >= 2, "{slot:?}");
        }
        let boards = [Slot::CrossyRayBoard, Slot::JungleBoard, Slot::QuoridorBoard];
        for slot in boards {
            assert!(CATALOGUE.iter().filter(|i| i.slot == slot).count() >= 3);
        }
    }

    #[test]
    fn a_stored_choice_of_another_slot_or_an_unknown_item_is_the_default() {
        let stored = vec![
            ("crossyray_board".to_string(), "jungle-savanna".to_string()),
            ("jungle_board".to_string(), "gone".to_string()),
            ("quoridor_board".to_string(), "quoridor-sea".to_string()),
        ];
        let map = chosen_map(&stored);
        assert_eq!(map["crossyray_board"], "crossyray-classic");
        assert_eq!(map["jungle_board"], "jungle-classic");
        assert_eq!(map["quoridor_board"], "quoridor-sea");
        assert_eq!(map["jungle_pieces"], "jungle-emoji");
    }
}
