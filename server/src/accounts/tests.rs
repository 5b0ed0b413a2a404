use super::*;

#[test]
fn usernames_are_short_plain_ascii() {
    assert_eq!(check_username(" Minh_01 ").unwrap(), "Minh_01");
    assert!(check_username("a-b").is_ok());
    assert!(check_username(&"x".repeat(20)).is_ok());
    assert!(check_username("ab").is_err());
    assert!(check_username(&"x".repeat(21)).is_err());
    assert!(check_username("min h").is_err());
    assert!(check_username("Đức").is_err());
    assert!(check_username("a.b.c").is_err());
}

#[test]
fn passwords_count_characters_not_bytes() {
    assert!(check_password("12345678").is_ok());
    assert!(check_password("1234567").is_err());
    assert!(check_password(&"ễ".repeat(8)).is_ok());
    assert!(check_password(&"ễ".repeat(128)).is_ok());
    assert!(check_password(&"x".repeat(129)).is_err());
}

#[test]
fn emails_are_optional_and_loosely_checked() {
    assert_eq!(check_email(None).unwrap(), None);
    assert_eq!(check_email(Some("  ")).unwrap(), None);
    assert_eq!(
        check_email(Some(" lan@example.org ")).unwrap().as_deref(),
        Some("lan@example.org")
    );
    for bad in [
        "lan",
        "@x.org",
        "lan@",
        "a@b@c",
        "l an@x.org",
        "a\u{7}@x.org",
        "lan\u{202E}@x.org",
        "lan@x\u{200B}.org",
    ] {
        assert!(check_email(Some(bad)).is_err(), "{bad}");
    }
    let long = format!("{}@x.org", "a".repeat(EMAIL_MAX - 5));
    assert!(check_email(Some(&long)).is_err());
    let max = format!("{}@x.org", "a".repeat(EMAIL_MAX - 6));
    assert!(check_email(Some(&max)).is_ok());
}
