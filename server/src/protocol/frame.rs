//! A text frame read into a typed command in one pass, as mini-redis
//! parses a frame before applying it: serde reads the text straight into
//! `Envelope<C>` (the `id` beside the command), with no JSON tree in
//! between.
//!
//! Tags must be JSON strings. serde reads an internally tagged enum's
//! tag from a number as the variant's index when the map was buffered
//! first (`"type":6` would be the seventh command), so [`string_tags`]
//! reads every tag as a string before the enum sees it: only the
//! documented names are commands.
//!
//! A frame that does not read is read again, as a JSON document, only to
//! say why in the words docs/PROTOCOL.md gives (not JSON, no integer id,
//! a tag that is no string, or what serde could not read) and with the
//! id when it is there, wherever it stands in the frame.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{BorrowedStrDeserializer, MapAccessDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::{json, Value};

use super::code::{Code, Refusal};

/// Largest text frame the server reads; anything larger gets `too_large`
/// without being parsed, so a client cannot make the server allocate or
/// parse big documents.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;

/// The field that names a command (`#[serde(tag = "type")]`).
pub const TAG: &str = "type";

/// The message for a frame without a usable `id`: a JSON integer in the
/// signed 64-bit range, as docs/PROTOCOL.md gives it (2^63 and more, a
/// fraction or an exponent, a string: no id).
pub const NEEDS_AN_ID: &str =
    "Every command needs an integer \"id\" from -9223372036854775808 to 9223372036854775807.";

/// The start of the message for a tag that is not a string.
const NEEDS_A_STRING: &str = "Every command needs a string";

/// A command from a client, with the id it will be answered under.
#[derive(Debug)]
pub struct Envelope<C> {
    pub id: i64,
    pub command: C,
}

/// Reads a text frame into a command. On failure, returns the id if it
/// could be read, so the error can still be matched to the command.
pub fn parse<C>(text: &str) -> Result<Envelope<C>, (Option<i64>, Refusal)>
where
    C: for<'de> Deserialize<'de>,
{
    if text.len() > MAX_MESSAGE_BYTES {
        return Err((
            None,
            Refusal::new(
                Code::TooLarge,
                format!(
                    "Message too large ({} bytes; the limit is {MAX_MESSAGE_BYTES}).",
                    text.len()
                ),
            ),
        ));
    }
    match serde_json::from_str(text) {
        Ok(envelope) => Ok(envelope),
        Err(_) => explain(text),
    }
}

/// Why `text` is no command, in the order a reader finds out: not JSON,
/// no integer `id`, then what the typed read refused.
fn explain<C>(text: &str) -> Result<Envelope<C>, (Option<i64>, Refusal)>
where
    C: for<'de> Deserialize<'de>,
{
    let bad = |id, message: String| (id, Refusal::new(Code::BadMessage, message));
    let value: Value =
        serde_json::from_str(text).map_err(|e| bad(None, format!("Not valid JSON: {e}.")))?;
    let id = value.get("id").and_then(Value::as_i64);
    if id.is_none() {
        return Err(bad(None, NEEDS_AN_ID.into()));
    }
    serde_json::from_value(value).map_err(|e| {
        let e = e.to_string();
        if e.starts_with(NEEDS_A_STRING) {
            bad(id, format!("{e}."))
        } else {
            bad(id, format!("Cannot read command: {e}."))
        }
    })
}

impl<'de, C: Deserialize<'de>> Deserialize<'de> for Envelope<C> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(Tagged::<Envelope<C>>::new(&[TAG]))
    }
}

/// Reads `T` from a map whose `tags` must be strings: for a tagged enum
/// inside a command (`#[serde(flatten, deserialize_with = ...)]`), as a
/// signal's `kind`.
pub fn string_tags<'de, D, T>(deserializer: D, tags: &'static [&'static str]) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let Plain(read) = deserializer.deserialize_map(Tagged::<Plain<T>>::new(tags))?;
    Ok(read)
}

/// What [`Tagged`] builds from the map it was given.
trait Read<'de>: Sized {
    fn read<A: MapAccess<'de>>(map: A, tags: &'static [&'static str]) -> Result<Self, A::Error>;
}

impl<'de, C: Deserialize<'de>> Read<'de> for Envelope<C> {
    fn read<A: MapAccess<'de>>(map: A, tags: &'static [&'static str]) -> Result<Self, A::Error> {
        let mut id = None;
        let fields = Fields::new(map, Some(&mut id), tags);
        let command = C::deserialize(MapAccessDeserializer::new(fields))?;
        let id = id.ok_or_else(|| de::Error::missing_field("id"))?;
        Ok(Envelope { id, command })
    }
}

/// Any `T` read through [`string_tags`].
struct Plain<T>(T);

impl<'de, T: Deserialize<'de>> Read<'de> for Plain<T> {
    fn read<A: MapAccess<'de>>(map: A, tags: &'static [&'static str]) -> Result<Self, A::Error> {
        T::deserialize(MapAccessDeserializer::new(Fields::new(map, None, tags))).map(Plain)
    }
}

/// The visitor behind both: hands the map to `R` through [`Fields`].
struct Tagged<R> {
    tags: &'static [&'static str],
    read: PhantomData<R>,
}

impl<R> Tagged<R> {
    fn new(tags: &'static [&'static str]) -> Tagged<R> {
        Tagged {
            tags,
            read: PhantomData,
        }
    }
}

impl<'de, R> Visitor<'de> for Tagged<R>
where
    R: Read<'de>,
{
    type Value = R;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<R, A::Error> {
        R::read(map, self.tags)
    }
}

/// A map as the command reads it: `id` taken out (when asked), and each
/// of `tags` read as a string, present once the map ends.
struct Fields<'a, A> {
    map: A,
    id: Option<&'a mut Option<i64>>,
    tags: &'static [&'static str],
    /// Bit `i`: `tags[i]` was there.
    seen: u32,
    /// The key just read is `tags[i]`.
    at_tag: Option<usize>,
}

impl<'a, A> Fields<'a, A> {
    fn new(map: A, id: Option<&'a mut Option<i64>>, tags: &'static [&'static str]) -> Self {
        Fields {
            map,
            id,
            tags,
            seen: 0,
            at_tag: None,
        }
    }
}

fn needs_a_string<E: de::Error>(tag: &str) -> E {
    E::custom(format!("{NEEDS_A_STRING} \"{tag}\""))
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Fields<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        loop {
            let Some(Text(key)) = self.map.next_key::<Text<'de>>()? else {
                let missing = (0..self.tags.len()).find(|i| self.seen & (1 << i) == 0);
                return match missing {
                    Some(i) => Err(needs_a_string(self.tags[i])),
                    None => Ok(None),
                };
            };
            if let (Some(id), "id") = (self.id.as_deref_mut(), &*key) {
                *id = Some(self.map.next_value()?);
                continue;
            }
            if let Some(i) = self.tags.iter().position(|t| *t == key) {
                self.seen |= 1 << i;
                self.at_tag = Some(i);
            }
            return seed.deserialize(text_deserializer(key)).map(Some);
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        let Some(i) = self.at_tag.take() else {
            return self.map.next_value_seed(seed);
        };
        match self.map.next_value::<Text<'de>>() {
            Ok(Text(tag)) => seed.deserialize(text_deserializer(tag)),
            Err(_) => Err(needs_a_string(self.tags[i])),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// A string, borrowed from the frame when it has no escapes.
struct Text<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(s.to_owned())))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(s)))
            }
        }
        deserializer.deserialize_str(V)
    }
}

/// Hands `text` on to whatever reads it next.
fn text_deserializer<'de, E: de::Error>(text: Cow<'de, str>) -> TextDeserializer<'de, E> {
    TextDeserializer(text, PhantomData)
}

struct TextDeserializer<'de, E>(Cow<'de, str>, PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for TextDeserializer<'de, E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.0 {
            Cow::Borrowed(s) => BorrowedStrDeserializer::new(s).deserialize_any(visitor),
            Cow::Owned(s) => s.into_deserializer().deserialize_any(visitor),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// The `ack` answer to command `id`, with optional extra fields.
pub fn ack(id: impl Into<Option<i64>>, extra: Option<Value>) -> String {
    // The plain ack (every move's answer) is written directly: building
    // a JSON map for two fields was 1.3 % of the server's samples in
    // `bench many-rooms` (BENCHMARKS.md, "Memory per socket, and a
    // cheaper move").
    let id = id.into();
    if let (Some(id), None) = (id, &extra) {
        return format!(r#"{{"id":{id},"type":"ack"}}"#);
    }
    // A lobby message's `id` is optional: its answer then carries
    // `"id":null`, as a refusal does.
    let mut msg = json!({"type": "ack", "id": id});
    if let (Some(Value::Object(extra)), Value::Object(map)) = (extra, &mut msg) {
        map.extend(extra);
    }
    msg.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ack_carries_extra_fields() {
        let v: Value = serde_json::from_str(&ack(1, Some(json!({"member": "m1"})))).unwrap();
        assert_eq!(v, json!({"type": "ack", "id": 1, "member": "m1"}));
    }

    #[test]
    fn a_plain_ack_is_the_same_json_as_one_built_with_a_map() {
        for id in [0, 7, -3, i64::MAX, i64::MIN] {
            let v: Value = serde_json::from_str(&ack(id, None)).unwrap();
            assert_eq!(v, json!({"type": "ack", "id": id}));
        }
        let v: Value = serde_json::from_str(&ack(None, None)).unwrap();
        assert_eq!(v, json!({"type": "ack", "id": null}));
        let v: Value = serde_json::from_str(&ack(None, Some(json!({"seek": 3})))).unwrap();
        assert_eq!(v, json!({"type": "ack", "id": null, "seek": 3}));
    }
}
