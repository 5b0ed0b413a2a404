//! The wall clock in Unix milliseconds: what the store keeps and the room
//! reasons with (deadlines, chat times, sessions' last use).

pub fn now_millis() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}
