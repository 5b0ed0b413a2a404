//! The HTTP side, one question a file: what every request shares
//! (`state.rs`), how it says no (`error.rs`), which URL goes where
//! (`routes.rs`, the only file that imports every handler), which hosts
//! and origins are ours (`hosts.rs`), the rooms' small JSON API
//! (`rooms.rs`) and whether this node can serve (`health.rs`). Handlers elsewhere (`accounts/`, `history/`, `ws/`)
//! import the state and the errors, never the routes.

pub mod error;
pub mod health;
pub mod hosts;
mod rooms;
pub mod routes;
pub mod state;
