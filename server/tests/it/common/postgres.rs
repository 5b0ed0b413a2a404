//! A fresh schema on this machine's PostgreSQL for each test
//! (`TEST_DATABASE_URL`, by default postgres://postgres@127.0.0.1:5432/test),
//! dropped afterwards. Without a server the tests that need one are
//! skipped, saying so, except under CI (`CI` set), where they fail.

#![allow(dead_code)]

use std::path::Path;

use server::model::new_token;
use server::store::Store;
fn server_url() -> String {
    std::env::var("TEST_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_string())
}

/// A fresh schema on the test server, or `None` (skip) without one.
pub async fn schema() -> Option<Schema> {
    let url = server_url();
    let admin = match sqlx::PgPool::connect(&url).await {
        Ok(pool) => pool,
        Err(e) if std::env::var_os("CI").is_none() => {
            eprintln!("skipped: no PostgreSQL at {url} ({e})");
            return None;
        }
        Err(e) => panic!("PostgreSQL at {url} is needed under CI: {e}"),
    };
    let name = format!(
        "store_{}",
        new_token()[..12].to_lowercase().replace('-', "_")
    );
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA \"{name}\"")))
        .execute(&admin)
        .await
        .expect("create schema");
    let sep = if url.contains('?') { '&' } else { '?' };
    let url = format!("{url}{sep}options=-c%20search_path%3D{name}");
    Some(Schema { admin, name, url })
}

pub struct Schema {
    admin: sqlx::PgPool,
    name: String,
    pub url: String,
}

impl Schema {
    pub async fn open(&self) -> Store {
        Store::open(Some(&self.url), Path::new("."))
            .await
            .expect("open a PostgreSQL store")
    }

    pub async fn drop(self) {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "DROP SCHEMA \"{}\" CASCADE",
            self.name
        )))
        .execute(&self.admin)
        .await
        .expect("drop schema");
        self.admin.close().await;
    }
}
