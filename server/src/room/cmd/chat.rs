//! `chat`: a named member says something to the room. The last
//! [`CHAT_HISTORY`] lines are kept (and stored) for people who join later.

use serde::Deserialize;

use super::super::event::{Effect, Event};
use super::super::state::{Applied, RoomState};
use crate::model::ids::MemberId;
use crate::model::records::ChatLine;
use crate::model::records::CHAT_HISTORY;
use crate::protocol::{Code, Refusal};
use crate::store::Write;
use crate::validate;

/// `chat`: one line for the room.
#[derive(Debug, Deserialize)]
pub struct Chat {
    pub text: String,
}

impl RoomState {
    pub(super) fn say(&mut self, member: MemberId, text: &str, now: u64) -> Applied {
        let me = self.member_mut(member)?;
        let Some(name) = me.name.clone() else {
            return Err(Refusal::new(Code::BadName, "Type a name before chatting."));
        };
        let text = validate::chat(text).map_err(|m| Refusal::new(Code::BadText, m))?;
        // Spent last: a refused line costs nothing.
        let addr = self.member(member).and_then(|m| m.seen_from);
        if !self.chat_budgets.take(member, addr, now) {
            return Err(Refusal::new(
                Code::RateLimited,
                "Too many chat messages; slow down.",
            ));
        }
        let line = ChatLine {
            from: name,
            member,
            text,
            at: now,
        };
        if self.chat.len() == CHAT_HISTORY {
            self.chat.pop_front();
        }
        self.chat.push_back(line.clone());
        let mut effects = vec![Effect::Persist(Write::Chat(line.clone()))];
        self.emit(&mut effects, Event::Chat { message: line });
        Ok(effects)
    }
}
