//! What the page reads of the protocol, written from this crate so that
//! the page and the server cannot drift apart: the declarations of the
//! messages (`www/protocol.d.ts`), which the page's type check reads, and
//! a table of room states with what `side_of` and `awaits` say of them
//! (`tests/unit/rooms.json`), which the page's own reading of them
//! (www/features/room.js) is tested against. Each test fails while its
//! file differs; `UTTT_WRITE_PAGE=1 cargo test -p uttt-protocol` writes them.

use std::path::PathBuf;

use ts_rs::{Config, TS};

use super::*;

/// Compares the file at `relative` (to the workspace) with `wanted`,
/// after writing it when asked to.
fn check(relative: &str, wanted: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(relative);
    if std::env::var_os("UTTT_WRITE_PAGE").is_some() {
        std::fs::write(&path, wanted).expect("write the page's file");
    }
    let found = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        found == wanted,
        "{relative} is out of date: run `UTTT_WRITE_PAGE=1 cargo test -p uttt-protocol`"
    );
}

/// Each type's declaration, exported, in the order of `lib.rs`.
fn declarations() -> String {
    // JSON numbers: the server's 64-bit times stay below 2^53.
    let cfg = Config::new().with_large_int("number");
    let types = [
        Kind::decl(&cfg),
        RuleSet::decl(&cfg),
        Side::decl(&cfg),
        ColourChoice::decl(&cfg),
        ClockSetting::decl(&cfg),
        RoomOptions::decl(&cfg),
        SeekOptions::decl(&cfg),
        ClientMessage::decl(&cfg),
        Point::decl(&cfg),
        ErrorCode::decl(&cfg),
        ChallengeEnd::decl(&cfg),
        ChatPreset::decl(&cfg),
        ChatChannel::decl(&cfg),
        ChatLine::decl(&cfg),
        Presence::decl(&cfg),
        EndReason::decl(&cfg),
        GameResult::decl(&cfg),
        ClockState::decl(&cfg),
        RoomState::decl(&cfg),
        SideStakes::decl(&cfg),
        Stakes::decl(&cfg),
        Vacation::decl(&cfg),
        Role::decl(&cfg),
        ServerMessage::decl(&cfg),
    ];
    let mut text = String::from(
        "// The online protocol's messages, written from crates/protocol by its\n\
         // test module page.rs: do not edit. Every frame also carries `v`.\n\n",
    );
    for declaration in types {
        text.push_str("export ");
        text.push_str(&declaration);
        text.push('\n');
    }
    text
}

#[test]
fn the_pages_declarations_are_those_of_the_types() {
    check("www/protocol.d.ts", &declarations());
}

/// Room states in every arrangement that `side_of` and `awaits` tell apart.
fn rooms() -> Vec<RoomState> {
    let presences = [
        (Presence::Connected, Presence::Connected),
        (Presence::Empty, Presence::Connected),
        (Presence::Connected, Presence::Empty),
        (Presence::Disconnected, Presence::Connected),
    ];
    let results = [
        None,
        Some(GameResult {
            winner: Some(Side::O),
            reason: EndReason::Resigned,
        }),
    ];
    let mut rooms = Vec::new();
    for x_seat in [0, 1] {
        for to_move in [Side::X, Side::O] {
            for (x, o) in presences {
                for result in results {
                    rooms.push(RoomState {
                        room: "abc".into(),
                        options: RoomOptions {
                            days: None,
                            kind: Kind::Ultimate,
                            rules: RuleSet::Standard,
                            colour: ColourChoice::Random,
                            clock: None,
                            rated: false,
                        },
                        game_number: 1,
                        x_seat,
                        record: "ultimate-standard:e5".into(),
                        to_move,
                        x,
                        o,
                        x_name: None,
                        o_name: None,
                        clock: None,
                        result,
                        draw_offer: None,
                        rematch: Vec::new(),
                        spectators: 0,
                        stakes: None,
                        vacation: Vec::new(),
                    });
                }
            }
        }
    }
    rooms
}

#[test]
fn the_pages_table_of_rooms_is_what_the_protocol_says() {
    let mut cases = Vec::new();
    for room in rooms() {
        for role in [Role::Seat0, Role::Seat1, Role::Spectator] {
            let side = room.side_of(role);
            cases.push(serde_json::json!({
                "room": room,
                "role": role,
                "side": side,
                "awaits": side.is_some_and(|s| room.awaits(s)),
            }));
        }
    }
    let mut text = serde_json::to_string_pretty(&cases).expect("a table of JSON values");
    text.push('\n');
    check("tests/unit/rooms.json", &text);
}
