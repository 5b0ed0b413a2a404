//! The server's nouns, below every layer that uses them: identifiers
//! (`ids.rs`), what the store keeps and the room is rebuilt from
//! (`records.rs`), a knockout bracket as pure data (`bracket.rs`) and the
//! wall clock (`time.rs`). The room and the store both import these and
//! this module imports neither, so neither can reach the other through a
//! shared type; below it are only the games, their log and the protocol's
//! small values.

pub mod bracket;
pub mod ids;
pub mod records;
pub mod time;

pub use ids::{is_valid_token, new_token, ConnId, GameId, MemberId, TableId, TokenHash};
pub use time::now_millis;
