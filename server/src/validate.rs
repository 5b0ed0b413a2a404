//! Checks on text that people type: names and chat lines.

pub const NAME_MAX: usize = 24;
pub const CHAT_MAX: usize = 300;

/// A display name: 1-24 characters after trimming, no control characters
/// (they could break other people's screens or logs).
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
    Ok(name.to_string())
}

/// A chat line: 1-300 characters after trimming, newlines and tabs become
/// spaces, other control characters are refused.
pub fn chat(input: &str) -> Result<String, String> {
    let text: String = input
        .trim()
        .chars()
        .map(|c| {
            if c == '\n' || c == '\t' || c == '\r' {
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
    Ok(text)
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

    #[test]
    fn chat_lines_are_bounded_and_flattened() {
        assert_eq!(chat(" hi\nthere ").unwrap(), "hi there");
        assert!(chat("").is_err());
        assert!(chat(&"x".repeat(301)).is_err());
        assert!(chat("a\u{1b}[31mred").is_err());
    }
}
