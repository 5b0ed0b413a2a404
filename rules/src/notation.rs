//! Moves, cells and walls travel as their notation: the wire protocol, the
//! database and exported games all carry `e4`, `e3h` or `8 a3-a4`, never a
//! struct. [`serde_as_notation!`](crate::serde_as_notation) gives a type
//! whose notation is its `Display`/`FromStr` the matching serde impls, so
//! every game states that once per type instead of hand-writing the glue.
//!
//! ```
//! let mv: rules::crossyray::Move = serde_json::from_str("\"goal:left\"").unwrap();
//! assert_eq!(serde_json::to_string(&mv).unwrap(), "\"goal:left\"");
//! assert!(serde_json::from_str::<rules::crossyray::Move>("\"goal:up\"").is_err());
//! ```

/// Implements `Serialize` (as `Display` text) and `Deserialize` (through
/// `FromStr`, with its error as the message) for a notation type.
#[macro_export]
macro_rules! serde_as_notation {
    ($ty:ty) => {
        impl ::serde::Serialize for $ty {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $ty {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> Result<Self, D::Error> {
                let text = <String as ::serde::Deserialize>::deserialize(deserializer)?;
                text.parse().map_err(::serde::de::Error::custom)
            }
        }
    };
}
