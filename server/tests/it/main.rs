//! The server's integration tests, one binary: each module starts the real
//! server (in process or as a child process) and talks to it over real
//! sockets and HTTP, as a browser would. One binary links the server once
//! (each file was a binary of its own, linking it again). `log_secrets.rs`
//! stays apart: it installs the process's tracing subscriber.

mod common;

mod accounts;
mod analysis;
mod big_room;
mod challenges;
mod cluster;
mod connections;
mod crossyray_room;
mod deltas;
mod deploy;
mod durable_rooms;
mod hint;
mod history;
mod http_limits;
mod jungle_room;
mod knockout;
mod lag;
mod leaving;
mod limits;
mod lobby;
mod logging;
mod pages;
mod profile;
mod quoridor_room;
mod rating_history;
mod recovery;
mod security;
mod shop;
mod solo_rooms;
mod store;
mod table_manners;
mod takeback;
mod turn_based;
mod voice;
mod wire_defects;
