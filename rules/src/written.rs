//! An option's value as the host wrote it, whatever its type, so that a
//! value the option cannot hold is refused in the words of its rule
//! (RULES.md: "Quoridor is for 2 to 8 players, not 300") rather than in
//! the words of the Rust type it is kept in ("expected u8").
//!
//! A number that is not one the option keeps (too large, negative, a
//! fraction) gets the rule's own message, as an out-of-range number that
//! fits does when the options are checked; anything else (`null`, a
//! string, a list, an object) is told what the option takes.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// Longest string shown back in a message, in characters.
const SHOWN_CHARS: usize = 32;

/// A JSON value, kept only as far as a message needs it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Written {
    /// A whole number, 0 or more.
    Whole(u64),
    /// A whole number below 0.
    Negative(i64),
    /// A number with a fraction or an exponent, or too large for `u64`.
    Fraction(f64),
    Text(String),
    Bool(bool),
    Null,
    List,
    Object,
}

impl Written {
    pub(crate) fn is_number(&self) -> bool {
        matches!(
            self,
            Written::Whole(_) | Written::Negative(_) | Written::Fraction(_)
        )
    }

    /// The value as a `T`, if it is a whole number `T` holds.
    pub(crate) fn whole<T: TryFrom<u64>>(&self) -> Option<T> {
        match self {
            Written::Whole(n) => T::try_from(*n).ok(),
            _ => None,
        }
    }

    /// The value read as a number kept in `T`: a number `T` cannot hold
    /// is refused with `rule` (the message the options' check gives an
    /// out-of-range number), anything else by [`not_a`].
    pub(crate) fn number<T: TryFrom<u64>>(
        &self,
        field: &str,
        takes: &str,
        rule: impl FnOnce(&dyn fmt::Display) -> String,
    ) -> Result<T, String> {
        match self.whole() {
            Some(n) => Ok(n),
            None if self.is_number() => Err(rule(self)),
            None => Err(not_a(field, takes, self)),
        }
    }
}

/// `field` given a value of the wrong kind: `"size must be 9, 11 or 13,
/// not null (leave it out for its default)"`.
pub(crate) fn not_a(field: &str, takes: &str, value: &Written) -> String {
    let hint = if *value == Written::Null {
        " (leave it out for its default)"
    } else {
        ""
    };
    format!("{field} must be {takes}, not {value}{hint}")
}

/// A field of a struct read by hand: present (even as `null`) or not.
pub(crate) fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Written>, D::Error> {
    Written::deserialize(d).map(Some)
}

impl fmt::Display for Written {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Written::Whole(n) => write!(f, "{n}"),
            Written::Negative(n) => write!(f, "{n}"),
            // `{:?}` keeps `9.0` apart from `9` and writes 1e300 short.
            Written::Fraction(x) => write!(f, "{x:?}"),
            Written::Text(s) if s.chars().count() > SHOWN_CHARS => {
                let start: String = s.chars().take(SHOWN_CHARS).collect();
                write!(f, "{start:?}…")
            }
            Written::Text(s) => write!(f, "{s:?}"),
            Written::Bool(b) => write!(f, "{b}"),
            Written::Null => f.write_str("null"),
            Written::List => f.write_str("a list"),
            Written::Object => f.write_str("an object"),
        }
    }
}

impl<'de> Deserialize<'de> for Written {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Written, D::Error> {
        d.deserialize_any(WrittenVisitor)
    }
}

struct WrittenVisitor;

impl<'de> Visitor<'de> for WrittenVisitor {
    type Value = Written;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Written, E> {
        Ok(Written::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Written, E> {
        Ok(match u64::try_from(n) {
            Ok(n) => Written::Whole(n),
            Err(_) => Written::Negative(n),
        })
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Written, E> {
        Ok(Written::Whole(n))
    }

    fn visit_f64<E: de::Error>(self, x: f64) -> Result<Written, E> {
        Ok(Written::Fraction(x))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Written, E> {
        Ok(Written::Text(s.to_string()))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Written, E> {
        Ok(Written::Text(s))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Written, E> {
        Ok(Written::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Written, E> {
        Ok(Written::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Written, D::Error> {
        Written::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Written, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Written::List)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Written, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Written::Object)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(json: &str) -> Written {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn every_json_value_is_read_and_shown_as_written() {
        for (json, shown) in [
            ("9", "9"),
            ("-1", "-1"),
            ("9.5", "9.5"),
            ("9.0", "9.0"),
            ("1e300", "1e300"),
            ("18446744073709551616", "1.8446744073709552e19"),
            (r#""9""#, r#""9""#),
            ("true", "true"),
            ("null", "null"),
            ("[1, {}]", "a list"),
            (r#"{"centre": null}"#, "an object"),
        ] {
            assert_eq!(written(json).to_string(), shown, "{json}");
        }
        let long = format!("\"{}\"", "x".repeat(100));
        assert_eq!(
            written(&long).to_string(),
            format!("\"{}\"…", "x".repeat(32))
        );
    }

    #[test]
    fn a_number_the_type_cannot_hold_gets_the_rules_words() {
        let rule = |v: &dyn fmt::Display| format!("not {v}");
        assert_eq!(written("200").number::<u8>("f", "1 to 9", rule), Ok(200));
        for json in ["256", "-1", "9.5", "9.0"] {
            assert_eq!(
                written(json).number::<u8>("f", "1 to 9", rule),
                Err(format!("not {}", written(json))),
                "{json}"
            );
        }
        assert_eq!(
            written("null").number::<u8>("f", "1 to 9", rule),
            Err("f must be 1 to 9, not null (leave it out for its default)".to_string())
        );
        assert_eq!(
            written(r#""3""#).number::<u8>("f", "1 to 9", rule),
            Err(r#"f must be 1 to 9, not "3""#.to_string())
        );
    }
}
