//! The store's contract, written against the `Store` API only, so the same
//! suite runs against every backend.
//!
//! Each check is an `async fn` taking a `&Store`, in the file of its
//! concern; [`on_both!`] runs it as two tests, `CHECK::sqlite` on a SQLite
//! store in a temporary folder and `CHECK::postgres` on this machine's
//! PostgreSQL (`TEST_DATABASE_URL`, by default
//! postgres://postgres@127.0.0.1:5432/test) in a schema of its own that is
//! dropped afterwards. Without a PostgreSQL server the second is skipped,
//! saying so, except under CI (`CI` set), where it fails. Room codes and
//! usernames are random, so the checks can share one database.
//!
//! `sqlite.rs` holds the SQLite-only checks (the file on disk, the
//! migrations of databases written by older servers).

use std::path::Path;

use server::store::Store;

/// Runs the check `$check` (an `async fn(&Store)` of the module this is
/// written in) on both backends, as the tests `$name::sqlite` and
/// `$name::postgres` (`$name` is the check's name unless given), on the
/// runtime `$test` (`tokio::test` unless given).
macro_rules! on_both {
    ($check:ident) => {
        on_both!($check: $check, tokio::test);
    };
    ($check:ident, $test:meta) => {
        on_both!($check: $check, $test);
    };
    ($name:ident: $check:ident, $test:meta) => {
        mod $name {
            #[$test]
            async fn sqlite() {
                let dir = tempfile::tempdir().expect("temp dir");
                let store = $crate::store::sqlite(dir.path()).await;
                super::$check(&store).await;
                store.close().await;
            }

            #[$test]
            async fn postgres() {
                if let Some(schema) = $crate::common::postgres::schema().await {
                    let store = schema.open().await;
                    super::$check(&store).await;
                    store.close().await;
                    schema.drop().await;
                }
            }
        }
    };
}

mod accounts;
mod analyses;
mod challenges;
mod coins;
mod fixtures;
mod games;
mod leases;
mod rating_history;
mod reopen;
mod results;
mod rooms;
mod seeks;
mod sqlite;
mod turns;
mod writes;

/// A SQLite store in `dir`.
async fn sqlite(dir: &Path) -> Store {
    Store::open(None, dir).await.expect("open a SQLite store")
}
