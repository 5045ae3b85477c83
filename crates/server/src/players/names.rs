//! Players' names: the rules a name follows, and the readable names a new
//! player is offered.
//!
//! A name is 3 to 20 characters of ASCII letters, digits, `_` and `-`,
//! begins with a letter, and does not say it is the site, its staff or an
//! engine (`RESERVED` as one of the name's words, in any case), so that
//! nobody can pass for them. A name's words are split where `_` or `-`
//! stands, where letters and digits meet, where a small letter meets a
//! capital (`TheBotKing`), and before the last capital of a run of them
//! followed by a small letter (`UTTTFan`): `Talbot` or `Engineer` is one
//! word and no reserved one. The least ambiguous of them (`BOUNDED`)
//! also begin or end no name, so that `theadmin` is refused too. Names are
//! unique whatever their case: the store's
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

/// Reserved words that begin or end no name either, even run together
/// with another word in one case (`theadmin`, `UTTTOFFICIAL`): unlike
/// `bot` (Talbot) or `support` (Supporter), no common name begins or ends
/// with them.
const BOUNDED: [&str; 5] = ["admin", "moderator", "uttt", "anonymous", "deleted"];

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
    if words(name).any(|word| RESERVED.contains(&word.to_ascii_lowercase().as_str()))
        || BOUNDED
            .iter()
            .any(|word| lower.starts_with(word) || lower.ends_with(word))
    {
        return Err(NameError::Reserved);
    }
    Ok(())
}

/// The words of `name` (ASCII letters, digits, `_` and `-`), as the
/// module's doc splits them.
fn words(name: &str) -> impl Iterator<Item = &str> {
    let bytes = name.as_bytes();
    let starts_word = move |i: usize| {
        let (before, here) = (bytes[i - 1], bytes[i]);
        let after = bytes.get(i + 1).copied().unwrap_or(b'_');
        before.is_ascii_digit() != here.is_ascii_digit()
            || (before.is_ascii_lowercase() && here.is_ascii_uppercase())
            || (before.is_ascii_uppercase()
                && here.is_ascii_uppercase()
                && after.is_ascii_lowercase())
    };
    name.split(['_', '-']).flat_map(move |part| {
        let offset = part.as_ptr() as usize - name.as_ptr() as usize;
        let mut cuts: Vec<usize> = (1..part.len())
            .filter(|&i| starts_word(offset + i))
            .collect();
        cuts.push(part.len());
        let mut from = 0;
        cuts.into_iter().map(move |to| {
            let word = &part[from..to];
            from = to;
            word
        })
    })
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
            "Talbot",
            "Engineer",
            "Supporter",
            "Robotics",
            "Badminton",
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
            ("UTTTFan", NameError::Reserved),
            ("bot42", NameError::Reserved),
            ("xBot", NameError::Reserved),
            ("BOT", NameError::Reserved),
            ("my-engine", NameError::Reserved),
            ("theadmin", NameError::Reserved),
            ("UTTTOFFICIAL", NameError::Reserved),
            ("moderatorx", NameError::Reserved),
        ];
        for (name, error) in bad {
            assert_eq!(check(name), Err(error), "{name}");
        }
    }

    #[test]
    fn names_split_into_words() {
        let split = |name| words(name).collect::<Vec<_>>();
        assert_eq!(split("TheBotKing"), ["The", "Bot", "King"]);
        assert_eq!(split("UTTTFan"), ["UTTT", "Fan"]);
        assert_eq!(split("a_b-c9x"), ["a", "b", "c", "9", "x"]);
        assert_eq!(split("Talbot"), ["Talbot"]);
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
