//! Newtypes for the room's identifiers, so a member id is never confused
//! with a connection id or a seat, and a browser token is never stored or
//! compared in the clear.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use uuid::Uuid;

/// A member of a room: a browser (by its token) or the computer. On the
/// wire `m<n>` (`m2`); numbers are never reused within a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MemberId(pub u32);

impl fmt::Display for MemberId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "m{}", self.0)
    }
}

impl Serialize for MemberId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for MemberId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<MemberId, D::Error> {
        let text = String::deserialize(d)?;
        text.strip_prefix('m')
            .and_then(|n| n.parse().ok())
            .map(MemberId)
            .ok_or_else(|| serde::de::Error::custom(format!("not a member id: {text:?}")))
    }
}

/// One open WebSocket, for the room's task (the pure state never sees
/// connections, only members).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ConnId(pub u64);

/// A table of a room: one board with its own match and clock. Ids are
/// UUID v7, so they sort by creation time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableId(pub Uuid);

/// One game played at a table (UUID v7), the key of its stored record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameId(pub Uuid);

macro_rules! uuid_id {
    ($t:ident) => {
        impl $t {
            /// A new id, ordered by time.
            pub fn new() -> $t {
                $t(Uuid::now_v7())
            }
        }

        impl Default for $t {
            fn default() -> $t {
                $t::new()
            }
        }

        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl std::str::FromStr for $t {
            type Err = uuid::Error;
            fn from_str(s: &str) -> Result<$t, uuid::Error> {
                Uuid::parse_str(s).map($t)
            }
        }

        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                self.0.serialize(s)
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                Uuid::deserialize(d).map($t)
            }
        }
    };
}

uuid_id!(TableId);
uuid_id!(GameId);

/// A browser token as the server keeps it: only its SHA-256, in hex.
/// Hosts, members and sessions are all found by this hash, so a copy of
/// the database cannot sign anyone in or take over a seat.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct TokenHash(String);

impl TokenHash {
    /// Hashes a browser token.
    pub fn of(token: &str) -> TokenHash {
        use sha2::Digest;
        let digest = sha2::Sha256::digest(token.as_bytes());
        TokenHash(digest.iter().map(|b| format!("{b:02x}")).collect())
    }

    /// A hash read back from the store.
    pub fn from_stored(hex: String) -> TokenHash {
        TokenHash(hex)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Never shows the hash in logs.
impl fmt::Debug for TokenHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TokenHash(…)")
    }
}

/// Browser tokens: 16-64 characters of `[A-Za-z0-9_-]`.
pub fn is_valid_token(token: &str) -> bool {
    (16..=64).contains(&token.len())
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A fresh browser token: 128 random bits in hex.
pub fn new_token() -> String {
    format!("{:032x}", rand::random::<u128>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_read_and_write_as_the_protocol_says() {
        assert_eq!(serde_json::to_value(MemberId(7)).unwrap(), "m7");
        let table = TableId::new();
        let text = serde_json::to_value(table).unwrap();
        assert_eq!(serde_json::from_value::<TableId>(text).unwrap(), table);
        assert!(TableId::new().0 > table.0, "v7 ids sort by time");
    }

    #[test]
    fn tokens_are_kept_as_hashes_only() {
        let token = new_token();
        assert!(is_valid_token(&token));
        let hash = TokenHash::of(&token);
        assert_eq!(hash.as_str().len(), 64);
        assert!(!hash.as_str().contains(&token));
        assert_eq!(hash, TokenHash::of(&token));
        assert!(!format!("{hash:?}").contains(hash.as_str()));
        assert!(!is_valid_token("short"));
        assert!(!is_valid_token("has spaces in it, sixteen+"));
    }
}
