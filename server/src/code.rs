//! Room invite codes: 6 characters people can read aloud and type from a
//! phone screen without confusing look-alikes.

use rand::RngExt;

/// No 0/O, no 1/I/L: the characters people misread.
pub const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
pub const LEN: usize = 6;

/// A fresh random code.
pub fn generate() -> String {
    let mut rng = rand::rng();
    (0..LEN)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// Reads a code typed or pasted by a person: trims it, upper-cases it and
/// checks every character. `None` if it cannot be a code.
pub fn normalize(input: &str) -> Option<String> {
    let code = input.trim().to_ascii_uppercase();
    (code.len() == LEN && code.bytes().all(|b| ALPHABET.contains(&b))).then_some(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_codes_avoid_look_alikes() {
        for _ in 0..1000 {
            let code = generate();
            assert_eq!(code.len(), LEN);
            assert!(!code.contains(['0', 'O', '1', 'I', 'L']), "{code}");
            assert_eq!(normalize(&code).as_deref(), Some(code.as_str()));
        }
    }

    #[test]
    fn codes_are_case_insensitive_and_trimmed() {
        assert_eq!(normalize(" k7qxmp ").as_deref(), Some("K7QXMP"));
    }

    #[test]
    fn look_alikes_and_wrong_lengths_are_refused() {
        assert_eq!(normalize("K7QXM0"), None);
        assert_eq!(normalize("K7QXMI"), None);
        assert_eq!(normalize("K7QXM"), None);
        assert_eq!(normalize("K7QXMPP"), None);
        assert_eq!(normalize("K7QXM/"), None);
    }
}
