//! Players' names: the rules a name follows, and the readable names a new
//! player is offered.
//!
//! A name is 3 to 20 characters of ASCII letters, digits, `_` and `-`,
//! begins with a letter, and does not say it is the site, its staff or an
//! engine (`RESERVED`, anywhere in the name, in any case), so that nobody
//! can pass for them. Names are unique whatever their case: the store's
//! column compares them without case.

use getrandom::fill;

/// The shortest and longest names.
pub const LENGTH: std::ops::RangeInclusive<usize> = 3..=20;

/// Words no name may contain: they would pass a player for the site, its
/// staff, an engine, or a deleted account.
const RESERVED: [&str; 10] = [
    "admin",
    "moderator",
    "staff",
    "system",
    "support",
    "uttt",
    "bot",
    "engine",
    "anonymous",
    "deleted",
];

const ADJECTIVES: [&str; 24] = [
    "Brave", "Calm", "Clever", "Quick", "Quiet", "Bold", "Bright", "Keen", "Lucky", "Merry",
    "Nimble", "Patient", "Proud", "Sharp", "Steady", "Swift", "Witty", "Gentle", "Happy", "Jolly",
    "Eager", "Noble", "Sunny", "Wise",
];

const ANIMALS: [&str; 24] = [
    "Otter", "Falcon", "Panda", "Fox", "Heron", "Lynx", "Owl", "Tiger", "Badger", "Crane",
    "Dolphin", "Gecko", "Koala", "Lemur", "Marten", "Puffin", "Raven", "Seal", "Sparrow", "Wombat",
    "Yak", "Zebra", "Beaver", "Hare",
];

/// Why a name cannot be taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameError {
    /// Shorter than 3 or longer than 20 characters.
    Length,
    /// A character other than letters, digits, `_` and `-`.
    Characters,
    /// It does not begin with a letter.
    Start,
    /// It contains a reserved word.
    Reserved,
}

impl NameError {
    /// The sentence a player reads.
    #[must_use]
    pub fn message(self) -> &'static str {
        match self {
            NameError::Length => "a name has 3 to 20 characters",
            NameError::Characters => "a name has only letters, digits, _ and -",
            NameError::Start => "a name begins with a letter",
            NameError::Reserved => "that name is kept for the site",
        }
    }
}

/// Whether `name` follows the rules (its uniqueness is the store's).
///
/// # Errors
/// The first rule it breaks.
pub fn check(name: &str) -> Result<(), NameError> {
    if !LENGTH.contains(&name.len()) {
        return Err(NameError::Length);
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        return Err(NameError::Characters);
    }
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Err(NameError::Start);
    }
    let lower = name.to_ascii_lowercase();
    if RESERVED.iter().any(|word| lower.contains(word)) {
        return Err(NameError::Reserved);
    }
    Ok(())
}

/// A readable name to offer a new player, such as `SwiftOtter482`; the
/// store tries another if it is taken.
///
/// # Errors
/// When the system's randomness cannot be read.
pub fn propose() -> Result<String, String> {
    let mut bytes = [0u8; 4];
    fill(&mut bytes).map_err(|e| format!("no randomness for a name: {e}"))?;
    let adjective = ADJECTIVES[usize::from(bytes[0]) % ADJECTIVES.len()];
    let animal = ANIMALS[usize::from(bytes[1]) % ANIMALS.len()];
    let number = u16::from_le_bytes([bytes[2], bytes[3]]) % 1000;
    Ok(format!("{adjective}{animal}{number}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_rules() {
        for good in [
            "Ann",
            "SwiftOtter482",
            "a_b-c",
            "Zz9",
            "abcdefghijklmnopqrst",
        ] {
            assert_eq!(check(good), Ok(()), "{good}");
        }
        let bad = [
            ("Al", NameError::Length),
            ("abcdefghijklmnopqrstu", NameError::Length),
            ("two words", NameError::Characters),
            ("émile", NameError::Characters),
            ("名字名字", NameError::Characters),
            ("9lives", NameError::Start),
            ("_under", NameError::Start),
            ("Admin", NameError::Reserved),
            ("TheBotKing", NameError::Reserved),
            ("UTTT_team", NameError::Reserved),
        ];
        for (name, error) in bad {
            assert_eq!(check(name), Err(error), "{name}");
        }
    }

    #[test]
    fn proposed_names_follow_the_rules() {
        for adjective in ADJECTIVES {
            for animal in ANIMALS {
                for number in [0, 999] {
                    let name = format!("{adjective}{animal}{number}");
                    assert_eq!(check(&name), Ok(()), "{name}");
                }
            }
        }
        for _ in 0..100 {
            let name = propose().unwrap();
            assert_eq!(check(&name), Ok(()), "{name}");
        }
    }
}
