//! The parsers never panic, whatever the text, and their errors point inside it.

use proptest::prelude::*;
use uttt_core::notation::{parse_classic_move, parse_move, ParseError};
use uttt_core::record::{parse_position, parse_record, record_string};
use uttt_core::AnyGame;
use uttt_core::Game;

/// The error offset lies within the text (the end counts: "missing here"),
/// on a character boundary, so a caller can slice the text there, and after
/// ASCII only, so it counts characters as well as bytes.
fn check_error(text: &str, e: &ParseError) -> Result<(), TestCaseError> {
    prop_assert!(
        e.at <= text.len(),
        "{e:?} beyond {} bytes of {text:?}",
        text.len()
    );
    prop_assert!(
        text.is_char_boundary(e.at),
        "{e:?} inside a character of {text:?}"
    );
    // Everything before the error is ASCII, so the byte offset is also the
    // character offset (and the UTF-16 one the page uses) that messages
    // like "at character 3" promise.
    prop_assert!(
        text[..e.at].is_ascii(),
        "{e:?} after non-ASCII text in {text:?}"
    );
    prop_assert!(!e.to_string().is_empty());
    Ok(())
}

fn check_all(text: &str) -> Result<(), TestCaseError> {
    match parse_move(text) {
        Ok(m) => prop_assert!(m.in_range()),
        Err(e) => check_error(text, &e)?,
    }
    match parse_classic_move(text) {
        Ok(m) => prop_assert!(m.0 < 9),
        Err(e) => check_error(text, &e)?,
    }
    match parse_record(text) {
        // Whatever was accepted writes a record that reads back the same.
        Ok(AnyGame::Ultimate(h)) => {
            prop_assert_eq!(parse_record(&record_string(&h)), Ok(AnyGame::Ultimate(h)))
        }
        Ok(AnyGame::Classic(h)) => {
            prop_assert_eq!(parse_record(&record_string(&h)), Ok(AnyGame::Classic(h)))
        }
        Err(e) => check_error(text, &e)?,
    }
    match parse_position(text) {
        Ok(AnyGame::Ultimate(h)) => prop_assert!(h.current().legal_moves().len() <= 81),
        Ok(AnyGame::Classic(_)) => {}
        Err(e) => check_error(text, &e)?,
    }
    Ok(())
}

/// Valid texts, to cut and splice: mutations of these reach deep into the parsers.
const SEEDS: [&str; 6] = [
    "ultimate-standard:e5e4d2b5",
    "ultimate-tiebreak: a1 b2 e5",
    "classic:b2a1c3",
    "ultimate-standard ........./........./........./........./....x..../........./........./........./......... 4",
    "ultimate-tiebreak xo......./........./........./........./........./........./........./........./......... -",
    "classic xo./.x./..o",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_unicode(text in any::<String>()) {
        check_all(&text)?;
    }

    #[test]
    fn text_from_the_notation_alphabet(text in "[a-jA-Jxo.:/ \\-0-9\té]{0,24}") {
        check_all(&text)?;
    }

    #[test]
    fn headers_followed_by_noise(
        header in prop::sample::select(vec!["ultimate-standard", "ultimate-tiebreak", "classic", "ultimate", "chess", ""]),
        sep in prop::sample::select(vec![":", " ", ": ", "", "é"]),
        body in "[a-ixo./ 0-9\\-é]{0,100}",
    ) {
        check_all(&format!("{header}{sep}{body}"))?;
    }

    #[test]
    fn valid_texts_cut_and_spliced(
        seed in prop::sample::select(SEEDS.to_vec()),
        cut in any::<prop::sample::Index>(),
        insert in any::<String>(),
        keep_tail in any::<bool>(),
    ) {
        let chars: Vec<char> = seed.chars().collect();
        let i = cut.index(chars.len() + 1);
        let head: String = chars[..i].iter().collect();
        let tail: String = if keep_tail { chars[i..].iter().collect() } else { String::new() };
        check_all(&format!("{head}{insert}{tail}"))?;
        check_all(&head)?;
    }
}

#[test]
fn the_seeds_themselves_parse() {
    assert!(parse_record(SEEDS[0]).is_ok());
    assert!(parse_record(SEEDS[1]).is_ok());
    assert!(parse_record(SEEDS[2]).is_ok());
    assert!(parse_position(SEEDS[3]).is_ok());
    assert!(parse_position(SEEDS[4]).is_ok());
    assert!(parse_position(SEEDS[5]).is_ok());
}
