//! Password hashing off the rooms' threads: argon2 on the blocking pool,
//! one hash per core at a time, and a decoy hash so an unknown username
//! answers as slowly as a wrong password.

use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use tokio::sync::{OnceCell, Semaphore};

use crate::model::new_token;

/// State shared by the account endpoints.
pub struct Accounts {
    /// One permit per core: argon2 is deliberately slow and memory-hungry,
    /// so a burst of logins queues instead of starving the rooms.
    hashing: Semaphore,
    /// A hash of a random password, verified against when the username
    /// does not exist, so an unknown name takes as long as a wrong
    /// password.
    decoy: OnceCell<Option<String>>,
}

impl Default for Accounts {
    fn default() -> Self {
        Accounts::new()
    }
}

impl Accounts {
    pub fn new() -> Accounts {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Accounts {
            hashing: Semaphore::new(cores),
            decoy: OnceCell::new(),
        }
    }

    pub(super) async fn hash(&self, password: String) -> Option<String> {
        let _permit = self.hashing.acquire().await.ok()?;
        tokio::task::spawn_blocking(move || {
            Argon2::default()
                .hash_password(password.as_bytes())
                .ok()
                .map(|h| h.to_string())
        })
        .await
        .ok()
        .flatten()
    }

    pub(super) async fn verify(&self, password: String, hash: String) -> bool {
        let Ok(_permit) = self.hashing.acquire().await else {
            return false;
        };
        tokio::task::spawn_blocking(move || {
            Argon2::default()
                .verify_password(password.as_bytes(), hash.as_str())
                .is_ok()
        })
        .await
        .unwrap_or(false)
    }

    pub(super) async fn decoy(&self) -> Option<String> {
        self.decoy
            .get_or_init(|| self.hash(new_token()))
            .await
            .clone()
    }
}
