//! A unit variant's name as serde spells it, so that a name written once
//! in `#[serde(rename_all = ...)]` is also the one logs and `Display`
//! print: no hand-written table beside the derive to drift from it.
//!
//! ```
//! use rules::serde_name::variant_name;
//! use rules::EndReason;
//!
//! assert_eq!(variant_name(&EndReason::OwnGoal), "own_goal");
//! ```

use std::fmt;

use serde::ser::{self, Impossible, Serialize, Serializer};

/// The name `value` serialises as, if it is a unit variant (the derive
/// hands it over as a `&'static str`); `"?"` for anything else.
pub fn variant_name<T: Serialize>(value: &T) -> &'static str {
    value.serialize(VariantName).unwrap_or("?")
}

/// A serializer that accepts only unit variants and returns their name.
struct VariantName;

/// Anything but a unit variant.
#[derive(Debug)]
struct NotAUnitVariant;

impl fmt::Display for NotAUnitVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a unit variant")
    }
}

impl std::error::Error for NotAUnitVariant {}

impl ser::Error for NotAUnitVariant {
    fn custom<T: fmt::Display>(_: T) -> Self {
        NotAUnitVariant
    }
}

type Refused = Impossible<&'static str, NotAUnitVariant>;

/// `fn serialize_x(self, _: A, ..) -> Result<R, _>` refusing its input.
macro_rules! refuse {
    ($($method:ident($($arg:ty),*) -> $ok:ty;)*) => {
        $(fn $method(self, $(_: $arg),*) -> Result<$ok, NotAUnitVariant> {
            Err(NotAUnitVariant)
        })*
    };
}

impl Serializer for VariantName {
    type Ok = &'static str;
    type Error = NotAUnitVariant;
    type SerializeSeq = Refused;
    type SerializeTuple = Refused;
    type SerializeTupleStruct = Refused;
    type SerializeTupleVariant = Refused;
    type SerializeMap = Refused;
    type SerializeStruct = Refused;
    type SerializeStructVariant = Refused;

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<&'static str, NotAUnitVariant> {
        Ok(variant)
    }

    refuse! {
        serialize_bool(bool) -> &'static str;
        serialize_i8(i8) -> &'static str;
        serialize_i16(i16) -> &'static str;
        serialize_i32(i32) -> &'static str;
        serialize_i64(i64) -> &'static str;
        serialize_u8(u8) -> &'static str;
        serialize_u16(u16) -> &'static str;
        serialize_u32(u32) -> &'static str;
        serialize_u64(u64) -> &'static str;
        serialize_f32(f32) -> &'static str;
        serialize_f64(f64) -> &'static str;
        serialize_char(char) -> &'static str;
        serialize_str(&str) -> &'static str;
        serialize_bytes(&[u8]) -> &'static str;
        serialize_none() -> &'static str;
        serialize_unit() -> &'static str;
        serialize_unit_struct(&'static str) -> &'static str;
        serialize_seq(Option<usize>) -> Refused;
        serialize_tuple(usize) -> Refused;
        serialize_tuple_struct(&'static str, usize) -> Refused;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Refused;
        serialize_map(Option<usize>) -> Refused;
        serialize_struct(&'static str, usize) -> Refused;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Refused;
    }

    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<&'static str, NotAUnitVariant> {
        Err(NotAUnitVariant)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<&'static str, NotAUnitVariant> {
        Err(NotAUnitVariant)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<&'static str, NotAUnitVariant> {
        Err(NotAUnitVariant)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EndReason, Side};

    #[test]
    fn a_unit_variant_is_named_as_serde_writes_it() {
        for reason in [EndReason::Goal, EndReason::NoCapture, EndReason::MoveLimit] {
            let json = serde_json::to_string(&reason).unwrap();
            assert_eq!(format!("\"{}\"", variant_name(&reason)), json);
        }
    }

    #[test]
    fn anything_else_has_no_name() {
        assert_eq!(variant_name(&Side(1)), "?");
        assert_eq!(variant_name(&"goal"), "?");
    }
}
