//! A connection's `hello` reaching the room's task: the member it is, its
//! answer, and the snapshot or the events it missed.

use axum::extract::ws::Utf8Bytes;
use tracing::debug;

use super::super::cmd::Hello;
use super::super::conn::{close, Conn};
use super::super::encoded::json;
use super::{split, Attach, RoomTask, StoreFailed};
use crate::model::ids::{is_valid_token, new_token, TokenHash};
use crate::model::records::AccountRef;
use crate::protocol::{self, Code, Refusal};

impl RoomTask {
    pub(super) async fn attach(&mut self, a: Attach, now: u64) -> Result<(), StoreFailed> {
        let token = a
            .token
            .filter(|t| is_valid_token(t))
            .unwrap_or_else(new_token);
        let hello = Hello {
            token: TokenHash::of(&token),
            name: a.name,
            account: a.account.map(|a| AccountRef {
                id: a.id,
                username: a.username,
                display_name: a.display_name,
            }),
            ratings: a.ratings,
            addr: a.addr.map(crate::limits::address::bucket_key),
        };
        // A member made by this hello (a watcher the room forgot when it
        // left) is new to the room: it gets a snapshot, never a resume.
        let members_before = self.state.next_member;
        let (member, effects) = match self.state.hello(hello, now) {
            Ok(done) => done,
            Err(refusal) => {
                // Refused at the door (the room is full): say why, then
                // close; nothing changed.
                let _ = a
                    .outbox
                    .try_send(Utf8Bytes::from(refusal.to_message(Some(a.id))));
                a.closer.close(close::POLICY, &refusal.message);
                return Ok(());
            }
        };
        let (writes, rest) = split(effects);
        if let Err(failed) = self.persist(writes).await {
            let refusal = Refusal::new(
                Code::Internal,
                "Something went wrong on our side; reconnecting.",
            );
            let _ = a
                .outbox
                .try_send(Utf8Bytes::from(refusal.to_message(Some(a.id))));
            a.closer
                .close(close::INTERNAL, "The room restarted; reconnecting.");
            return Err(failed);
        }
        self.deliver(rest);
        let base = self.settings.public_url.clone().unwrap_or(a.base_url);
        let conn = Conn {
            member,
            outbox: a.outbox,
            closer: a.closer,
            via: a.via,
        };
        self.conns.insert(a.conn, conn);
        self.occupancy.set_joined();
        debug!(room = %self.state.code, %member, conn = a.conn.0, "attached");
        // A client that says where it stood gets the events it missed, if
        // this run of the room still has them all; otherwise a snapshot.
        let new_member = self.state.next_member != members_before;
        let missed = a
            .since
            .as_ref()
            .filter(|_| !new_member)
            .and_then(|since| self.missed(since, member));
        let resumed = missed.is_some();
        let ack = protocol::ack(
            a.id,
            Some(serde_json::json!({"token": token, "member": member, "resumed": resumed})),
        );
        self.send_to(a.conn, ack);
        match missed {
            Some(events) => {
                for text in events {
                    if let Some(c) = self.conns.get(&a.conn) {
                        if c.outbox.try_send(text).is_err() {
                            // More than its queue holds: start it afresh.
                            c.closer
                                .close(close::TRY_AGAIN, "Too far behind; reconnect.");
                            break;
                        }
                    }
                }
            }
            None => {
                let mut snapshot = self.state.snapshot(member, &base, now);
                snapshot.epoch = self.run.clone();
                self.send_to(a.conn, json(&snapshot));
            }
        }
        Ok(())
    }

    /// The events after `since` for `member`, if `since` is of this run
    /// and every event after it is still kept.
    fn missed(
        &self,
        since: &crate::protocol::Since,
        member: crate::model::ids::MemberId,
    ) -> Option<Vec<Utf8Bytes>> {
        if since.epoch != self.run || since.v > self.state.version {
            return None;
        }
        let oldest = self.recent.front().map_or(self.state.version + 1, |r| r.v);
        if since.v + 1 < oldest {
            return None;
        }
        Some(
            self.recent
                .iter()
                .filter(|r| r.v > since.v)
                .map(|r| r.encoded.for_member(member))
                .collect(),
        )
    }
}
