//! Move notation and parse errors: typed, and pointing where the text went wrong.

use uttt_core::notation::{
    parse_classic_move, parse_move, region_name, ParseErrorKind, REGION_NAMES,
};
use uttt_core::record::{parse_position, parse_record};
use uttt_core::{ClassicMove, IllegalMove, Move};

#[test]
fn the_three_forms_name_the_same_cells() {
    // Column letter and row digit; board/cell; 0-based row and column.
    assert_eq!(parse_move("a1"), Ok(Move::new(0, 0)));
    assert_eq!(parse_move("i9"), Ok(Move::new(8, 8)));
    assert_eq!(parse_move("d4"), Ok(Move::new(4, 0)));
    assert_eq!(parse_move("4/0"), Ok(Move::new(4, 0)));
    assert_eq!(parse_move("3 3"), Ok(Move::new(4, 0)));
    assert_eq!(parse_move("  F6\t"), Ok(Move::new(4, 8)));
    assert_eq!(parse_move("0  8"), Ok(Move::new(2, 2)));
    assert_eq!(parse_classic_move("b2"), Ok(ClassicMove(4)));
    assert_eq!(parse_classic_move("2 0"), Ok(ClassicMove(6)));
    assert_eq!(parse_classic_move("8"), Ok(ClassicMove(8)));
}

#[test]
fn move_errors_are_typed_and_placed() {
    let cases: [(&str, usize, ParseErrorKind); 9] = [
        ("", 0, ParseErrorKind::Empty),
        ("   ", 3, ParseErrorKind::Empty),
        (
            "j5",
            0,
            ParseErrorKind::OutOfRange("the column must be a to i"),
        ),
        (
            "e0",
            1,
            ParseErrorKind::OutOfRange("the row must be 1 to 9"),
        ),
        ("e", 1, ParseErrorKind::Expected("a row digit")),
        ("e5 x", 3, ParseErrorKind::Trailing),
        ("4/", 2, ParseErrorKind::Expected("a digit")),
        ("4-4", 1, ParseErrorKind::Expected("'/' or a space")),
        ("?", 0, ParseErrorKind::Expected("a digit")),
    ];
    for (text, at, kind) in cases {
        let e = parse_move(text).unwrap_err();
        assert_eq!((e.at, e.kind), (at, kind), "{text:?}");
    }
    assert_eq!(parse_move("4/9").unwrap_err().at, 2);
    assert_eq!(parse_move("9 0").unwrap_err().at, 0);
    assert_eq!(parse_move("0 10").unwrap_err().at, 2);
    assert_eq!(parse_classic_move("d1").unwrap_err().at, 0);
    assert_eq!(parse_classic_move("a4").unwrap_err().at, 1);
    assert_eq!(parse_classic_move("1 3").unwrap_err().at, 2);
}

#[test]
fn record_errors_are_typed_and_placed() {
    let e = parse_record("ultimate-standard:e5e5").unwrap_err();
    assert_eq!(e.at, 20);
    assert_eq!(
        e.kind,
        ParseErrorKind::Illegal {
            ply: 1,
            reason: IllegalMove::CellTaken
        }
    );
    assert!(e.to_string().contains("move 2"), "{e}");
    let e = parse_record("ultimate-standard:e5a1").unwrap_err();
    assert_eq!(
        e.kind,
        ParseErrorKind::Illegal {
            ply: 1,
            reason: IllegalMove::WrongBoard { required: 4 }
        }
    );
    assert_eq!(
        parse_record("go:e5").unwrap_err().kind,
        ParseErrorKind::UnknownGame
    );
    assert_eq!(parse_record("").unwrap_err().kind, ParseErrorKind::Empty);
    assert_eq!(parse_record("classic").unwrap_err().at, 6);
    assert_eq!(parse_record("classic:b2e").unwrap_err().at, 10);
}

#[test]
fn position_errors_are_typed_and_placed() {
    let empty =
        "........./........./........./........./........./........./........./........./.........";
    let ok = format!("ultimate-standard {empty} -");
    assert!(parse_position(&ok).is_ok());
    // O has more pieces than X.
    let e = parse_position(&format!("ultimate-standard o{} -", &empty[1..])).unwrap_err();
    assert_eq!(e.at, 18);
    assert!(matches!(e.kind, ParseErrorKind::Impossible(_)));
    // A bad cell character points at itself.
    let e = parse_position(&format!("ultimate-standard ..q{} -", &empty[3..])).unwrap_err();
    assert_eq!(e.at, 20);
    // Target board 9 is out of range.
    let e = parse_position(&format!("ultimate-standard {empty} 9")).unwrap_err();
    assert_eq!(e.at, 18 + empty.len() + 1);
    // Only eight rows.
    assert!(parse_position(&format!("ultimate-standard {} -", &empty[10..])).is_err());
    // A target on a finished game.
    let won_grid =
        "xxxxxxxxx/o.oo.oo.o/o.o....../........./........./........./........./........./.........";
    let e = parse_position(&format!("ultimate-standard {won_grid} 4")).unwrap_err();
    assert!(matches!(e.kind, ParseErrorKind::Impossible(_)), "{e:?}");
    assert!(parse_position(&format!("ultimate-standard {won_grid} -")).is_ok());
}

#[test]
fn region_names_cover_the_nine_regions() {
    assert_eq!(REGION_NAMES.len(), 9);
    assert_eq!(region_name(0), Some("top-left"));
    assert_eq!(region_name(4), Some("centre"));
    assert_eq!(region_name(8), Some("bottom-right"));
    assert_eq!(region_name(9), None);
}

#[test]
fn a_game_that_went_on_after_a_line_is_refused() {
    // Classic: X's top row with as many O pieces as X: O moved after X won.
    let e = parse_position("classic xxx/oo./o..").unwrap_err();
    assert!(matches!(e.kind, ParseErrorKind::Impossible(_)), "{e:?}");
    assert_eq!(e.at, 8);
    assert!(parse_position("classic xxx/oo./...").is_ok());
    // O's line with X one piece ahead: X moved after O won.
    assert!(parse_position("classic ooo/xx./xx.").is_err());
    assert!(parse_position("classic ooo/xx./x..").is_ok());
    // Ultimate: X's top row of boards, X 9 pieces, O 9: O moved after the end.
    let grid =
        "xxxxxxxxx/o.oo.oo.o/o.o...o../........./........./........./........./........./.........";
    let e = parse_position(&format!("ultimate-standard {grid} -")).unwrap_err();
    assert!(matches!(e.kind, ParseErrorKind::Impossible(_)), "{e:?}");
}
