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

/// Implements `Debug` as the notation (`Display`), so that a failed
/// assertion on moves, cells or walls reads `e3h`, not a struct.
#[macro_export]
macro_rules! debug_as_notation {
    ($ty:ty) => {
        impl ::std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                ::std::fmt::Display::fmt(self, f)
            }
        }
    };
}

/// Implements `Display` as the name `$ty::$name` gives a value and
/// `FromStr` as its inverse over `$ty::ALL`; text that names none is the
/// error `$unknown` makes of it (a `String`).
#[macro_export]
macro_rules! display_and_parse_by_name {
    ($ty:ty, $name:ident, $unknown:expr) => {
        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.$name())
            }
        }

        impl ::std::str::FromStr for $ty {
            type Err = String;

            fn from_str(s: &str) -> Result<$ty, String> {
                <$ty>::ALL
                    .into_iter()
                    .find(|v| v.$name() == s)
                    .ok_or_else(|| ($unknown)(s))
            }
        }
    };
}

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

/// `game` after the moves of `line`, in notation and apart by spaces: how
/// tests set a position up. A move that does not parse or is refused
/// panics, naming it.
#[cfg(test)]
pub(crate) fn after_line<G: crate::game::Game>(mut game: G, line: &str) -> G {
    for text in line.split_whitespace() {
        let mv = game
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        game.play(&mv)
            .unwrap_or_else(|e| panic!("{text} refused: {e}"));
    }
    game
}
