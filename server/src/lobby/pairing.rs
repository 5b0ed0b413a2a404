//! Quick pairing: a seek placed in the shared store (`store/seeks.rs`),
//! and the pairing carried out. The node whose placement found a partner
//! asks the partner's node to make the room (only that node holds its
//! seeker's browser token; in-process when it is this node, else over
//! NATS through [`Lobby::set_remote`]), and both seekers' sockets get
//! the room's code. A partner whose socket went in between is dropped
//! and the seek tried again.

use std::net::IpAddr;

use bytes::Bytes;
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio::sync::oneshot;
use tokio_util::task::task_tracker::TaskTrackerToken;
use tracing::warn;

use super::presets::Preset;
use super::{Lobby, Waiting, SEEKS_PER_ACCOUNT, SEEK_TTL};
use crate::games::GameKind;
use crate::limits::open::Place;
use crate::model::ids::TokenHash;
use crate::model::now_millis;
use crate::model::records::AccountRef;
use crate::protocol::{Code, Refusal};
use crate::ratings::Rating;
use crate::room::Invitee;
use crate::store::seeks::{NewSeek, Partner, Placed};

/// Widest rating range a seek may ask for, and the narrowest.
pub const RANGE_MAX: i64 = 1000;
pub const RANGE_MIN: i64 = 50;

/// A `seek` as the socket read it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    pub game: String,
    pub preset: String,
    /// Left out or `null`: not rated.
    #[serde(default, deserialize_with = "false_if_null")]
    pub rated: bool,
    /// Opponents rated within this many points (`None`: anyone).
    #[serde(default)]
    pub range: Option<i64>,
}

/// `null` read as `false`, as a field left out is (PROTOCOL.md: a field
/// that is optional may be `null`).
pub(crate) fn false_if_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(Option::<bool>::deserialize(d)?.unwrap_or(false))
}

/// Who seeks: what the paired room needs to seat them.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Seeker {
    /// The browser's token (never stored: the row keeps its hash).
    pub token: String,
    pub name: String,
    pub account: Option<WireAccount>,
    #[serde(skip)]
    pub addr: Option<IpAddr>,
}

/// A seeker's account, as it travels to another node.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WireAccount {
    pub id: i64,
    pub username: String,
    pub display_name: String,
}

impl Seeker {
    fn invitee(&self) -> Invitee {
        Invitee {
            token: self.token.clone(),
            name: self.name.clone(),
            account: self.account.as_ref().map(|a| AccountRef {
                id: a.id,
                username: a.username.clone(),
                display_name: a.display_name.clone(),
            }),
        }
    }
}

/// An open seek of a socket: dropping it withdraws the seek.
pub struct SeekHandle {
    id: String,
    lobby: Lobby,
    /// Held while the seek is open: the stop waits for it
    /// (`Lobby::withdrawn`), and for the withdrawal its drop spawns.
    _open: TaskTrackerToken,
    /// The seek's place among its address's (`--seeks-per-addr`).
    _place: Option<Place>,
    /// The paired room's code arrives here (closed: the pairing failed).
    pub paired: oneshot::Receiver<String>,
}

impl SeekHandle {
    pub fn id(&self) -> &str {
        &self.id
    }
}

impl Drop for SeekHandle {
    fn drop(&mut self) {
        let inner = &self.lobby.inner;
        inner.seeks.remove(&self.id);
        let store = inner.registry.store().clone();
        let id = std::mem::take(&mut self.id);
        // Tracked: a stop waits for it before the store closes.
        inner.seeking.spawn(async move {
            if let Err(e) = store.cancel_seek(&id).await {
                warn!(error = %e, "could not withdraw a seek");
            }
        });
    }
}

/// Why a pairing could not be carried out.
enum Unpaired {
    /// The partner's socket (or node) went: try again.
    Gone,
    Failed,
}

/// A pairing request to another node.
#[derive(Serialize, Deserialize)]
struct PairRequest {
    seek: String,
    with: Seeker,
    game: GameKind,
    preset: String,
    rated: bool,
}

fn bad_seek(message: impl Into<String>) -> Refusal {
    Refusal::new(Code::BadSeek, message)
}

fn internal() -> Refusal {
    Refusal::new(
        Code::Internal,
        "Something went wrong on our side; try again.",
    )
}

impl Lobby {
    /// Places `request` for `seeker`: paired at once with a compatible
    /// open seek, or left open. The handle's `paired` gets the room.
    pub async fn seek(&self, seeker: Seeker, request: &SeekRequest) -> Result<SeekHandle, Refusal> {
        // From here, a stop waits for this seek (placed, then withdrawn)
        // before the store closes.
        let open = self.inner.seeking.token();
        let game = GameKind::parse(&request.game).map_err(bad_seek)?;
        let preset = Preset::find(game, &request.preset).ok_or_else(|| {
            bad_seek(format!(
                "No time control {:?} for {}: choose one of {}.",
                request.preset,
                game.name(),
                super::presets::names(game).join(", ")
            ))
        })?;
        if request.rated && seeker.account.is_none() {
            return Err(Refusal::new(
                Code::SignInToRate,
                "Sign in to play rated games.",
            ));
        }
        let (range_lo, range_hi) = match request.range {
            None => (i64::MIN / 4, i64::MAX / 4),
            Some(r) if (RANGE_MIN..=RANGE_MAX).contains(&r) => (-r, r),
            Some(r) => {
                return Err(bad_seek(format!(
                    "A rating range is {RANGE_MIN} to {RANGE_MAX} points, not {r}."
                )))
            }
        };
        let inner = &self.inner;
        let rating = match &seeker.account {
            None => Rating::default().rating.round() as i64,
            Some(a) => match inner.registry.store().ratings(a.id).await {
                Ok(list) => {
                    list.iter()
                        .find(|(g, _)| g == game.name())
                        .map_or(Rating::default(), |(_, r)| *r)
                        .view(now_millis())
                        .rating
                }
                Err(e) => {
                    warn!(error = %e, "ratings lookup failed");
                    return Err(internal());
                }
            },
        };
        let place = match seeker.addr {
            Some(addr) => match inner.per_addr.try_open(addr, None, inner.seeks_per_addr) {
                Some(place) => Some(place),
                None => {
                    return Err(Refusal::new(
                        Code::TooManySeeks,
                        "Too many open seeks from this address.",
                    ))
                }
            },
            None => None,
        };
        let id = uuid::Uuid::now_v7().simple().to_string();
        let (tx, rx) = oneshot::channel();
        let handle = SeekHandle {
            id: id.clone(),
            lobby: self.clone(),
            _open: open,
            _place: place,
            paired: rx,
        };
        let new = NewSeek {
            id: id.clone(),
            node: inner.node.clone(),
            game: game.name().to_string(),
            preset: preset.name.to_string(),
            rated: request.rated,
            account: seeker.account.as_ref().map(|a| a.id),
            token_hash: TokenHash::of(&seeker.token).as_str().to_string(),
            rating,
            range_lo: rating.saturating_add(range_lo),
            range_hi: rating.saturating_add(range_hi),
        };
        // Known here before the row is: a partner placed right after
        // finds this seek's socket.
        let mut waiting = Waiting { seeker, paired: tx };
        for _ in 0..3 {
            inner.seeks.insert(id.clone(), waiting);
            let now = now_millis();
            let fresh = now.saturating_sub(SEEK_TTL.as_millis() as u64);
            let placed = inner
                .registry
                .store()
                .place_seek(&new, now, fresh, SEEKS_PER_ACCOUNT)
                .await
                .map_err(|e| {
                    warn!(error = %e, "could not place a seek");
                    internal()
                })?;
            let partner = match placed {
                Placed::Waiting => return Ok(handle),
                Placed::TooMany => {
                    return Err(Refusal::new(
                        Code::TooManySeeks,
                        format!("An account has at most {SEEKS_PER_ACCOUNT} open seeks."),
                    ))
                }
                Placed::Paired(partner) => partner,
            };
            // Paired in the store: this node carries the pairing out.
            let Some((_, me)) = inner.seeks.remove(&id) else {
                return Err(internal());
            };
            let store = inner.registry.store();
            match self
                .pair_with(&partner, &me.seeker, preset, request.rated)
                .await
            {
                Ok(code) => {
                    let _ = me.paired.send(code);
                    let _ = store.delete_seek(&id).await;
                    return Ok(handle);
                }
                Err(Unpaired::Gone) => {
                    let _ = store.delete_seek(&partner.id).await;
                    let _ = store.delete_seek(&id).await;
                    waiting = me;
                }
                Err(Unpaired::Failed) => {
                    let _ = store.delete_seek(&id).await;
                    return Err(internal());
                }
            }
        }
        Err(internal())
    }

    /// Has `partner`'s node make the room for `partner` and `mine`.
    async fn pair_with(
        &self,
        partner: &Partner,
        mine: &Seeker,
        preset: Preset,
        rated: bool,
    ) -> Result<String, Unpaired> {
        if partner.node == self.inner.node {
            return self
                .make_room(&partner.id, mine.clone(), preset, rated)
                .await;
        }
        let Some(remote) = self.inner.remote.get() else {
            return Err(Unpaired::Gone);
        };
        let request = PairRequest {
            seek: partner.id.clone(),
            with: mine.clone(),
            game: preset.game,
            preset: preset.name.to_string(),
            rated,
        };
        let payload = Bytes::from(serde_json::to_vec(&request).unwrap_or_default());
        let Some(answer) = remote(partner.node.clone(), payload).await else {
            return Err(Unpaired::Gone);
        };
        let answer: serde_json::Value = serde_json::from_slice(&answer).unwrap_or_default();
        match (answer["code"].as_str(), answer["gone"].as_bool()) {
            (Some(code), _) => Ok(code.to_string()),
            (None, Some(true)) => Err(Unpaired::Gone),
            _ => Err(Unpaired::Failed),
        }
    }

    /// Makes the room for this node's open seek `seek` and `other`, in a
    /// random seat order, and tells the seek's socket.
    async fn make_room(
        &self,
        seek: &str,
        other: Seeker,
        preset: Preset,
        rated: bool,
    ) -> Result<String, Unpaired> {
        let inner = &self.inner;
        let Some((_, waiting)) = inner.seeks.remove(seek) else {
            return Err(Unpaired::Gone);
        };
        let mut players = vec![waiting.seeker.invitee(), other.invitee()];
        if rand::random::<bool>() {
            players.reverse();
        }
        let options = preset.options().map_err(|_| Unpaired::Failed)?;
        match inner.registry.create_seated(&options, rated, players).await {
            Ok(code) => {
                let _ = waiting.paired.send(code.clone());
                let _ = inner.registry.store().delete_seek(seek).await;
                Ok(code)
            }
            Err(e) => {
                warn!(error = %e, "could not make a paired room");
                let _ = inner.registry.store().delete_seek(seek).await;
                Err(Unpaired::Failed)
            }
        }
    }

    /// Another node's pairing request (`bg.node.N.pair`): the answer's
    /// JSON, `{"code"}`, `{"gone":true}` or `{"failed"}`.
    pub async fn remote_pair(&self, payload: &[u8]) -> Bytes {
        let answer = match serde_json::from_slice::<PairRequest>(payload) {
            Err(_) => json!({"failed": "bad request"}),
            Ok(r) => match Preset::find(r.game, &r.preset) {
                None => json!({"failed": "bad preset"}),
                Some(preset) => match self.make_room(&r.seek, r.with, preset, r.rated).await {
                    Ok(code) => json!({ "code": code }),
                    Err(Unpaired::Gone) => json!({"gone": true}),
                    Err(Unpaired::Failed) => json!({"failed": "no room"}),
                },
            },
        };
        Bytes::from(answer.to_string())
    }
}
