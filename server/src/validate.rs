//! Checks on text that people type (names and chat lines) and on the
//! voice signalling that browsers relay through the room.
//!
//! Besides control characters, names refuse every invisible formatting
//! character (Unicode category Cf: bidirectional controls such as U+202E
//! RIGHT-TO-LEFT OVERRIDE, zero-width spaces and joiners, the byte-order
//! mark, tags…), line/paragraph separators and every other
//! Default_Ignorable_Code_Point (Hangul fillers, the combining grapheme
//! joiner, Khmer inherent vowels, Mongolian free variation selectors…):
//! they can make one name look like another, make a name look blank, or
//! reorder what other people see around it. Only a variation selector
//! (U+FE0F in "❤️") is kept, directly after a visible character, whose
//! look it picks. A name must also show something: one character at least
//! that is neither white space, nor a combining mark, nor blank-looking
//! ([`is_visible`]). Chat keeps the format characters that emoji and
//! scripts need (zero-width joiner, tag sequences of flags, soft hyphen,
//! direction marks) but refuses the bidirectional embeddings, overrides
//! and isolates, whose effect reaches past the character itself ("Trojan
//! Source").
//!
//! The Unicode properties are `icu_properties`' (its compiled data,
//! Unicode 18.0): [`is_default_ignorable`] and the general categories
//! behind [`is_format`] and [`is_visible`] follow Unicode's
//! DerivedCoreProperties.txt and UnicodeData.txt rather than a table kept
//! by hand.

pub const NAME_MAX: usize = 24;
pub const CHAT_MAX: usize = 300;

/// A display name: 1-24 characters after trimming, no control characters
/// (they could break other people's screens or logs), no invisible
/// characters ([`has_invisible`]: they could spoof another name, make it
/// look blank or reorder the text around it), at least one visible
/// character ([`is_visible`]); not a name of the computer
/// ([`reads_as_computer`]: a person is never shown as the computer), and
/// no `+` standing alone as a word ([`has_lone_plus`]: the stored record
/// joins a team's names with " + ", which must read back as the same
/// people).
pub fn name(input: &str) -> Result<String, String> {
    let name = input.trim();
    let len = name.chars().count();
    if len == 0 {
        return Err("Please type a name.".into());
    }
    if len > NAME_MAX {
        return Err(format!("A name can have at most {NAME_MAX} characters."));
    }
    if name.chars().any(char::is_control) {
        return Err("A name cannot contain control characters.".into());
    }
    if has_invisible(name) {
        return Err("A name cannot contain invisible or text-direction characters.".into());
    }
    if !name.chars().any(is_visible) {
        return Err("A name needs at least one visible character.".into());
    }
    if reads_as_computer(name) {
        return Err("That name is the computer's; choose another.".into());
    }
    if has_lone_plus(name) {
        return Err("A name cannot have a \"+\" standing alone between spaces.".into());
    }
    Ok(name.to_string())
}

/// Whether `name` holds a character that a name refuses as invisible: a
/// format character ([`is_format`], the zero-width joiner of emoji
/// sequences too), a line or paragraph separator, or any other
/// [`is_default_ignorable`] character but a variation selector (U+FE00-
/// U+FE0F, U+E0100-U+E01EF, the Mongolian U+180B-U+180D and U+180F)
/// directly after an [`is_visible`] character: "❤️" (U+2764 U+FE0F) is
/// kept, a selector alone, after a space, a mark or another selector is
/// not.
pub fn has_invisible(name: &str) -> bool {
    let mut after_visible = false;
    for c in name.chars() {
        let kept_selector = after_visible && is_variation_selector(c);
        if is_format(c)
            || matches!(c, '\u{2028}' | '\u{2029}')
            || (is_default_ignorable(c) && !kept_selector)
        {
            return true;
        }
        after_visible = is_visible(c);
    }
    false
}

/// Whether `c` shows something by itself: not white space, not a
/// combining mark (general category M, drawn on the character before
/// it), not [`is_default_ignorable`], not a control or format character,
/// and not blank-looking ([`is_blank`]).
pub fn is_visible(c: char) -> bool {
    !(c.is_whitespace()
        || c.is_control()
        || is_format(c)
        || is_default_ignorable(c)
        || is_blank(c)
        || icu_properties::props::GeneralCategoryGroup::Mark.contains(general_category(c)))
}

/// Characters that are drawn as an empty space without being white
/// space: U+2800 BRAILLE PATTERN BLANK and the Hangul fillers (U+115F,
/// U+1160, U+3164, U+FFA0; these are default-ignorable too).
pub fn is_blank(c: char) -> bool {
    matches!(
        c,
        '\u{2800}' | '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}'
    )
}

/// Unicode's Default_Ignorable_Code_Point: characters a renderer shows
/// as nothing when it does not support them (DerivedCoreProperties.txt).
pub fn is_default_ignorable(c: char) -> bool {
    use icu_properties::{props::DefaultIgnorableCodePoint, CodePointSetData};
    CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
}

/// Unicode's Variation_Selector property (PropList.txt).
pub fn is_variation_selector(c: char) -> bool {
    use icu_properties::{props::VariationSelector, CodePointSetData};
    CodePointSetData::new::<VariationSelector>().contains(c)
}

fn general_category(c: char) -> icu_properties::props::GeneralCategory {
    icu_properties::CodePointMapData::<icu_properties::props::GeneralCategory>::new().get(c)
}

/// The computer's names in Vietnamese, as `web/js/i18n/vi.json` writes
/// them (`computer.name` with each `level.*`); the English ones are
/// [`rules::Level::display_name`]'s.
const COMPUTER_NAMES_VI: [&str; 4] = [
    "Máy (Mới chơi)",
    "Máy (Nghiệp dư)",
    "Máy (Chuyên nghiệp)",
    "Máy (Bậc thầy)",
];

/// Whether `name` reads as one of the computer's names, the server's
/// English ones (`Computer (Master)`) or the pages' Vietnamese ones
/// (`Máy (Bậc thầy)`), alone or numbered as a room numbers several
/// (`Computer (Beginner) 2`): the pages show such a stored name as the
/// computer (`web/js/names.js`). Compared in any case, with runs of
/// spaces as one (a page shows them so) and accents composed or not.
pub fn reads_as_computer(name: &str) -> bool {
    use unicode_normalization::UnicodeNormalization;
    let fold = |text: &str| -> String {
        let lower: String = text.nfc().flat_map(char::to_lowercase).collect();
        lower.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let name = fold(name);
    rules::Level::ALL
        .iter()
        .map(|l| fold(&l.display_name()))
        .chain(COMPUTER_NAMES_VI.iter().map(|c| fold(c)))
        .any(|computer| {
            name == computer
                || name
                    .strip_prefix(&computer)
                    .and_then(|rest| rest.strip_prefix(' '))
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
}

/// Whether `name` has a `+` with a space (or the name's start or end) on
/// each side: joined with another by " + " it would read as more people,
/// or fewer.
pub fn has_lone_plus(name: &str) -> bool {
    let chars: Vec<char> = name.chars().collect();
    let spaced = |at: Option<usize>| {
        at.and_then(|i| chars.get(i))
            .is_none_or(|c| c.is_whitespace())
    };
    chars
        .iter()
        .enumerate()
        .any(|(i, c)| *c == '+' && spaced(i.checked_sub(1)) && spaced(Some(i + 1)))
}

/// A chat line: 1-300 characters after trimming, newlines, tabs and line
/// or paragraph separators become spaces, other control characters and
/// the bidirectional embeddings, overrides and isolates are refused.
pub fn chat(input: &str) -> Result<String, String> {
    let text: String = input
        .trim()
        .chars()
        .map(|c| {
            if matches!(c, '\n' | '\t' | '\r' | '\u{2028}' | '\u{2029}') {
                ' '
            } else {
                c
            }
        })
        .collect();
    let len = text.chars().count();
    if len == 0 {
        return Err("The message is empty.".into());
    }
    if len > CHAT_MAX {
        return Err(format!("A message can have at most {CHAT_MAX} characters."));
    }
    if text.chars().any(char::is_control) {
        return Err("A message cannot contain control characters.".into());
    }
    if text.chars().any(is_bidi_override) {
        return Err("A message cannot contain text-direction control characters.".into());
    }
    Ok(text)
}

/// Bidirectional embeddings, overrides and isolates (U+202A-U+202E,
/// U+2066-U+2069): they reorder everything up to their end, or to the end
/// of the paragraph when they are not closed.
pub fn is_bidi_override(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Bidirectional formatting characters: [`is_bidi_override`] and the
/// direction marks LRM, RLM and ALM (U+200E, U+200F, U+061C).
pub fn is_bidi_control(c: char) -> bool {
    is_bidi_override(c) || matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// Unicode general category Cf (format): invisible characters that change
/// how text around them is shown. Includes every [`is_bidi_control`]
/// character, zero-width space / joiners, word joiner and invisible
/// operators, the byte-order mark, interlinear annotation marks and tags.
pub fn is_format(c: char) -> bool {
    general_category(c) == icu_properties::props::GeneralCategory::Format
}

/// Longest session description relayed (an audio-only SDP of a browser
/// is 1-4 KB; this leaves room under the 16 KiB frame limit).
pub const SDP_MAX: usize = 8 * 1024;
/// Longest ICE candidate line relayed.
pub const CANDIDATE_MAX: usize = 1024;
/// Longest media id (`mid`) of a candidate.
pub const MID_MAX: usize = 64;

/// A WebRTC signalling message: its size and its form (a description
/// starts with `v=0`, a candidate line with `candidate:` or is empty at
/// the end of the candidates), no NUL or other control characters but
/// the line breaks of an SDP. The room relays it without reading more.
pub fn signal(signal: &crate::protocol::Signal) -> Result<(), String> {
    use crate::protocol::Signal;
    let controls = |text: &str| {
        text.chars()
            .any(|c| c.is_control() && c != '\r' && c != '\n')
    };
    match signal {
        Signal::Offer { sdp } | Signal::Answer { sdp } => {
            if sdp.len() > SDP_MAX {
                return Err(format!(
                    "A session description has at most {SDP_MAX} bytes ({} sent).",
                    sdp.len()
                ));
            }
            if !sdp.starts_with("v=0") || controls(sdp) {
                return Err("Not a session description (SDP).".into());
            }
        }
        Signal::Candidate { candidate, mid, .. } => {
            if candidate.len() > CANDIDATE_MAX || mid.as_ref().is_some_and(|m| m.len() > MID_MAX) {
                return Err(format!(
                    "An ICE candidate has at most {CANDIDATE_MAX} bytes, its mid {MID_MAX}."
                ));
            }
            if !(candidate.is_empty() || candidate.starts_with("candidate:"))
                || candidate.chars().any(char::is_control)
                || mid
                    .as_deref()
                    .is_some_and(|m| m.chars().any(char::is_control))
            {
                return Err("Not an ICE candidate.".into());
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(name("  Lan ").unwrap(), "Lan");
        assert_eq!(
            name("Nguyễn Thị Minh Khai").unwrap(),
            "Nguyễn Thị Minh Khai"
        );
        assert!(name("   ").is_err());
        assert!(name(&"x".repeat(25)).is_err());
        assert!(name(&"ễ".repeat(24)).is_ok());
        assert!(name("a\u{7}b").is_err());
        assert!(name("a\nb").is_err());
    }

    /// A person cannot take the computer's name, in English or as the
    /// Vietnamese pages show it, numbered or not, however spaced, cased
    /// or composed; names that only mention it stay fine.
    #[test]
    fn the_computer_s_names_are_refused() {
        for taken in [
            "Computer (Master)",
            "Computer (Beginner) 2",
            " computer  (AMATEUR)  17 ",
            "Computer (Professional)",
            "Máy (Bậc thầy)",
            "Máy (Mới chơi) 3",
            "ma\u{301}y (nghie\u{302}\u{323}p dư)",
            "MÁY (CHUYÊN NGHIỆP)",
        ] {
            assert!(name(taken).is_err(), "{taken:?}");
        }
        for fine in [
            "Computer",
            "Computer (Grandmaster)",
            "Computer (Master) two",
            "Computer (Master)2",
            "Máy",
            "My Computer (Master)",
            "Mày (Bậc thầy)",
        ] {
            assert_eq!(name(fine).as_deref(), Ok(fine), "{fine:?}");
        }
    }

    /// The Vietnamese names are the pages' own (`web/js/i18n/vi.json`).
    #[test]
    fn the_vietnamese_computer_names_are_the_pages() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/js/i18n/vi.json");
        let vi: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let pages: Vec<String> = rules::Level::ALL
            .iter()
            .map(|l| {
                let level = vi[format!("level.{}", l.name())].as_str().unwrap();
                vi["computer.name"]
                    .as_str()
                    .unwrap()
                    .replace("{level}", level)
            })
            .collect();
        assert_eq!(pages, COMPUTER_NAMES_VI);
    }

    /// A team's names are joined by " + " in the stored record: a name
    /// with a lone "+" would read back as other people.
    #[test]
    fn a_lone_plus_is_refused() {
        for bad in ["A + B", "A +", "+ B", "+", "A  +\tB"] {
            assert!(name(bad).is_err(), "{bad:?}");
        }
        for fine in ["A+B", "C++", "+1", "Lan+", "1 +1", "A ++ B"] {
            assert_eq!(name(fine).as_deref(), Ok(fine), "{fine:?}");
        }
    }

    #[test]
    fn chat_lines_are_bounded_and_flattened() {
        assert_eq!(chat(" hi\nthere ").unwrap(), "hi there");
        assert!(chat("").is_err());
        assert!(chat(&"x".repeat(301)).is_err());
        assert!(chat("a\u{1b}[31mred").is_err());
    }

    /// Every bidirectional control the review named, one by one.
    const BIDI: [char; 12] = [
        '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}',
        '\u{2068}', '\u{2069}', '\u{200E}', '\u{200F}', '\u{061C}',
    ];

    #[test]
    fn names_refuse_every_bidi_control() {
        for c in BIDI {
            for text in [format!("Lan{c}"), format!("{c}Lan"), format!("La{c}n")] {
                assert!(name(&text).is_err(), "U+{:04X} in {text:?}", c as u32);
            }
            assert!(is_bidi_control(c) && is_format(c), "U+{:04X}", c as u32);
        }
        // The classic: "Lan" + RLO + "gpj.exe" shows as "Lanexe.jpg".
        let err = name("Lan\u{202E}gpj.exe").unwrap_err();
        assert!(err.contains("text-direction"), "{err}");
    }

    #[test]
    fn names_refuse_invisible_format_characters() {
        for c in [
            '\u{200B}',  // zero-width space
            '\u{200C}',  // zero-width non-joiner
            '\u{200D}',  // zero-width joiner
            '\u{2060}',  // word joiner
            '\u{2062}',  // invisible times
            '\u{FEFF}',  // byte-order mark / zero-width no-break space
            '\u{00AD}',  // soft hyphen
            '\u{180E}',  // Mongolian vowel separator
            '\u{206A}',  // inhibit symmetric swapping (deprecated)
            '\u{FFF9}',  // interlinear annotation anchor
            '\u{E0001}', // language tag
            '\u{E0041}', // tag latin capital A
            '\u{1D173}', // musical symbol begin beam
        ] {
            assert!(is_format(c), "U+{:04X}", c as u32);
            assert!(name(&format!("La{c}n")).is_err(), "U+{:04X}", c as u32);
        }
        assert!(name("Lan\u{2028}Minh").is_err());
        assert!(name("Lan\u{2029}Minh").is_err());
        // Ordinary letters, marks, emoji and RTL scripts stay.
        assert!(name("Nguyễn Thị Minh Khai").is_ok());
        assert!(name("Lan 🐯").is_ok());
        assert!(name("שלום").is_ok());
        assert!(name("مريم").is_ok());
        assert!(name("e\u{0301}").is_ok(), "combining marks are not Cf");
        assert!(!is_format('a') && !is_format(' ') && !is_format('\u{0301}'));
    }

    /// Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt),
    /// as the brief of this check listed it: the crate's data must agree,
    /// range for range (a new Unicode version that changes it shows here).
    const DEFAULT_IGNORABLE: [(u32, u32); 17] = [
        (0x00AD, 0x00AD),
        (0x034F, 0x034F),
        (0x061C, 0x061C),
        (0x115F, 0x1160),
        (0x17B4, 0x17B5),
        (0x180B, 0x180F),
        (0x200B, 0x200F),
        (0x202A, 0x202E),
        (0x2060, 0x206F),
        (0x3164, 0x3164),
        (0xFE00, 0xFE0F),
        (0xFEFF, 0xFEFF),
        (0xFFA0, 0xFFA0),
        (0xFFF0, 0xFFF8),
        (0x1BCA0, 0x1BCA3),
        (0x1D173, 0x1D17A),
        (0xE0000, 0xE0FFF),
    ];

    fn every_char() -> impl Iterator<Item = char> {
        (0..=0x10FFFF).filter_map(char::from_u32)
    }

    #[test]
    fn default_ignorables_are_unicode_s() {
        for c in every_char() {
            let listed = DEFAULT_IGNORABLE
                .iter()
                .any(|&(a, b)| (a..=b).contains(&(c as u32)));
            assert_eq!(is_default_ignorable(c), listed, "U+{:04X}", c as u32);
        }
    }

    /// Every default-ignorable character is refused in a name, alone,
    /// first, last or inside, but a variation selector directly after a
    /// visible character.
    #[test]
    fn names_refuse_every_default_ignorable() {
        for c in every_char().filter(|&c| is_default_ignorable(c)) {
            let u = c as u32;
            for text in [format!("{c}"), format!("{c}Lan"), format!("{c}{c}")] {
                assert!(name(&text).is_err(), "U+{u:04X} in {text:?}");
            }
            let inside = format!("La{c}n");
            let after_space = format!("Lan {c}x");
            let after_mark = format!("Le\u{301}{c}n");
            let twice = format!("La{c}{c}n");
            if is_variation_selector(c) {
                assert_eq!(name(&inside).as_deref(), Ok(&*inside), "U+{u:04X}");
                assert_eq!(name(&format!("Lan{c}")).as_deref(), Ok(&*format!("Lan{c}")));
            } else {
                assert!(name(&inside).is_err(), "U+{u:04X} in {inside:?}");
                assert!(name(&format!("Lan{c}")).is_err(), "U+{u:04X} last");
            }
            for text in [after_space, after_mark, twice] {
                assert!(name(&text).is_err(), "U+{u:04X} in {text:?}");
            }
        }
    }

    /// What the outside report found accepted, each refused.
    #[test]
    fn blank_looking_names_are_refused() {
        for blank in [
            "\u{3164}",         // Hangul filler
            "\u{FFA0}",         // halfwidth Hangul filler
            "\u{115F}\u{1160}", // Hangul choseong and jungseong fillers
            "\u{2800}",         // braille pattern blank
            "\u{2800} \u{2800}",
            "a\u{034F}b", // combining grapheme joiner
            "\u{17B4}",   // Khmer vowel inherent AQ
            "\u{17B5}",
            "\u{0301}\u{0301}", // combining marks only
            "\u{20DD}",         // combining enclosing circle (Me)
            "\u{0903}",         // Devanagari sign visarga (Mc)
            " \u{0301} \u{0302} ",
            "\u{2800}\u{0301}",
            "\u{3000}\u{0301}", // ideographic space and a mark
            "\u{1160}\u{1160}",
            "\u{FE0F}", // a variation selector alone
            "\u{2800}\u{FE0F}",
            "Lan\u{3164}", // a filler that trimming would not remove
        ] {
            assert!(name(blank).is_err(), "{blank:?}");
        }
        assert_eq!(
            name("\u{2800}").unwrap_err(),
            "A name needs at least one visible character."
        );
        assert!(is_blank('\u{2800}') && !is_visible('\u{2800}'));
        assert!(!is_visible('\u{0301}') && !is_visible(' ') && !is_visible('\u{3164}'));
    }

    /// Names that show themselves stay: marks after a letter, blanks
    /// between visible words, a variation selector after an emoji or an
    /// ideograph. An emoji sequence joined with U+200D ZERO WIDTH JOINER
    /// stays refused, as names refused it before (a joiner is Cf).
    #[test]
    fn visible_names_are_kept() {
        for fine in [
            "Nguye\u{0302}\u{0303}n", // Nguyễn, decomposed (NFD)
            "Nguyễn",
            "Thi\u{0323} Minh",
            "e\u{0301}",
            "❤\u{FE0F}", // ❤️
            "Lan ❤\u{FE0F}",
            "1\u{FE0F}\u{20E3}", // keycap 1️⃣
            "葛\u{E0100}",       // an ideographic variation sequence
            "ᠠ\u{180B}",         // Mongolian letter a, FVS1
            "⠇⠁⠝\u{2800}⠍⠊⠝⠓",   // braille with a blank between words
            "Lan 🐯",
            "👍🏽",
            "🇻🇳",
            "नमस्ते",
            "김민",
            "ㅎㅎ",
            "x",
        ] {
            assert_eq!(name(fine).as_deref(), Ok(fine), "{fine:?}");
        }
        // The selectors the document names, and only those.
        let selectors: Vec<char> = every_char().filter(|&c| is_variation_selector(c)).collect();
        let named = |c: char| matches!(c, '\u{180B}'..='\u{180D}' | '\u{180F}' | '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}');
        assert!(selectors.iter().all(|&c| named(c)));
        assert_eq!(selectors.len(), 3 + 1 + 16 + 240);
        for joined in [
            "👩\u{200D}💻",
            "👨\u{200D}👩\u{200D}👧",
            "🏳\u{FE0F}\u{200D}🌈",
        ] {
            assert!(name(joined).is_err(), "{joined:?}");
        }
    }

    #[test]
    fn chat_refuses_bidi_overrides_and_isolates() {
        for c in BIDI.into_iter().filter(|&c| is_bidi_override(c)) {
            for text in [format!("hi {c}there"), format!("{c}hi"), format!("hi{c}")] {
                assert!(chat(&text).is_err(), "U+{:04X} in {text:?}", c as u32);
            }
        }
        assert_eq!(BIDI.into_iter().filter(|&c| is_bidi_override(c)).count(), 9);
        // Direction marks affect only their neighbours: RTL writers use them.
        for c in ['\u{200E}', '\u{200F}', '\u{061C}'] {
            assert!(chat(&format!("שלום{c} 42")).is_ok(), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn chat_keeps_emoji_and_flattens_line_separators() {
        // Family (zero-width joiners), skin tone, flag, England flag (tags).
        for text in [
            "gg 👨\u{200D}👩\u{200D}👧",
            "👍🏽",
            "🇻🇳",
            "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",
            "❤️",
        ] {
            assert_eq!(chat(text).unwrap(), text);
        }
        assert_eq!(chat("a\u{2028}b\u{2029}c").unwrap(), "a b c");
    }
}
