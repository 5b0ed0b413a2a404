//! The messages of `docs/PROTOCOL.md` as the socket sees them: a frame
//! read into a typed command ([`frame`]), the error codes the server
//! answers with ([`code`]), and the small values commands carry
//! ([`values`]). The commands themselves are the room's (`room/cmd/`:
//! each command's struct beside its apply), so this module imports
//! nothing of the room; events are typed in `room/event.rs` and
//! serialised once per event by the room's task.

mod code;
mod frame;
mod values;

pub use code::{Code, Refusal};
pub use frame::{ack, parse, string_tags, Envelope, MAX_MESSAGE_BYTES, TAG};
pub use values::{ClaimAction, DrawAction, Order, Signal, Since};
