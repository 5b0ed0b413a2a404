//! The wall clock in Unix milliseconds: what the store keeps and the room
//! reasons with (deadlines, chat times, sessions' last use).
//!
//! For tests only, the clock can be moved forward (`--test-clock` and
//! `POST /api/test/clock`): [`advance`] adds to a skew every reading of
//! the clock includes, so a test plays "one move a day" in seconds.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

static SKEW_MS: AtomicU64 = AtomicU64::new(0);
static TEST_CLOCK: AtomicBool = AtomicBool::new(false);

pub fn now_millis() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
        + skew()
}

/// How far the test clock has been moved forward (0 unless tests moved it).
pub fn skew() -> u64 {
    SKEW_MS.load(Ordering::Relaxed)
}

/// Turns the movable test clock on (`--test-clock`).
pub fn enable_test_clock() {
    TEST_CLOCK.store(true, Ordering::Relaxed);
}

/// Whether the clock may be moved (and so sleepers must check it often).
pub fn test_clock() -> bool {
    TEST_CLOCK.load(Ordering::Relaxed)
}

/// Moves the clock forward by `ms`; the new skew.
pub fn advance(ms: u64) -> u64 {
    SKEW_MS.fetch_add(ms, Ordering::Relaxed) + ms
}
