//! The rooms' chats (`chat.rs`) with real clients against a real
//! `uttt-server`: the players' chat and the watchers' never meet, a line is
//! a preset or checked text sent as it was typed, each connection is held
//! to a rate, a newcomer reads the latest lines of its own chat, and a
//! reported line is stored with its game.

use std::time::Duration;

use crate::support::api::player;
use crate::support::client::{classic, mv, Client};
use crate::support::{fresh_db, players_server, Server};
use uttt_protocol::{
    ChatChannel, ChatLine, ChatPreset, ClientMessage, ErrorCode, ServerMessage, Side,
};

fn say(client: &mut Client, preset: Option<ChatPreset>, text: Option<&str>) {
    client.send(&ClientMessage::Chat {
        preset,
        text: text.map(str::to_string),
    });
}

/// The next chat line `client` hears.
fn heard(client: &mut Client) -> ChatLine {
    client.until("chat", |m| match m {
        ServerMessage::Chat { line } => Some(line.clone()),
        ServerMessage::Error { code, message } => panic!("refused: {code:?} {message}"),
        _ => None,
    })
}

/// The chat history `client` was sent on joining.
fn history(client: &mut Client) -> Vec<ChatLine> {
    client.until("chatHistory", |m| match m {
        ServerMessage::ChatHistory { lines } => Some(lines.clone()),
        _ => None,
    })
}

/// Whether `client` hears a chat line within half a second.
fn hears_chat(client: &mut Client) -> bool {
    client
        .frames_for(Duration::from_millis(500))
        .iter()
        .any(|m| matches!(m, ServerMessage::Chat { .. }))
}

/// A watcher of `room`, signed in as `session` if given.
fn watcher(server: &Server, room: &str, session: Option<&str>) -> Client {
    let mut w = Client::connect_as(server.addr, session);
    w.send(&ClientMessage::Join {
        room: room.to_string(),
        token: None,
    });
    w.joined();
    w
}

#[test]
fn players_and_watchers_chat_apart_within_limits_and_lines_are_reported() {
    let db = fresh_db();
    let server = players_server("chat", &db, &[]);
    let (ann, ann_name) = player(&server);
    let (carl, carl_name) = player(&server);
    let mut a = Client::connect_as(server.addr, Some(&ann));
    a.send(&ClientMessage::Create { options: classic() });
    let (room, _, _) = a.joined();
    let mut b = Client::connect(server.addr);
    b.send(&ClientMessage::Join {
        room: room.clone(),
        token: None,
    });
    b.joined();
    assert!(history(&mut b).is_empty());
    let mut w = watcher(&server, &room, Some(&carl));
    let mut v = watcher(&server, &room, None);

    // A player's preset: to both players, named and sided, never to watchers.
    say(&mut a, Some(ChatPreset::GoodLuck), None);
    let line = heard(&mut b);
    assert_eq!(heard(&mut a), line);
    assert_eq!(
        (
            line.channel,
            line.side,
            line.name.as_deref(),
            line.preset,
            line.text.as_deref()
        ),
        (
            ChatChannel::Players,
            Some(Side::X),
            Some(ann_name.as_str()),
            Some(ChatPreset::GoodLuck),
            None
        )
    );
    assert!(!hears_chat(&mut w));

    // A watcher's typed words reach the watchers exactly as typed (the page
    // shows them as text), never the players.
    let typed = "<b>nice</b> see https://example.org";
    say(&mut w, None, Some(&format!("  {typed} ")));
    let said = heard(&mut v);
    assert_eq!((said.channel, said.side), (ChatChannel::Spectators, None));
    assert_eq!(said.name.as_deref(), Some(carl_name.as_str()));
    assert_eq!(said.text.as_deref(), Some(typed));
    assert!(!hears_chat(&mut a));
    assert!(!hears_chat(&mut b));

    // Bad lines are refused, and nobody hears them.
    for (preset, text) in [
        (None, None),
        (Some(ChatPreset::Hello), Some("hi")),
        (None, Some("   ")),
        (None, Some("one\nline")),
    ] {
        say(&mut b, preset, text);
        assert_eq!(b.error(), ErrorCode::BadChat);
    }
    say(&mut b, None, Some(&"x".repeat(141)));
    assert_eq!(b.error(), ErrorCode::BadChat);
    assert!(!hears_chat(&mut a));

    // The game goes on beside the chat.
    a.send(&mv(0, 0, 4));
    b.state(|s| s.record.ends_with("b2"));

    // A newcomer reads the latest lines of its own chat.
    let mut late = Client::connect(server.addr);
    late.send(&ClientMessage::Join {
        room: room.clone(),
        token: None,
    });
    late.joined();
    assert_eq!(history(&mut late), vec![said.clone()]);

    // Reported: a player's line by the other player; a line of another
    // chat is not the reporter's to report.
    // Reported twice, kept once.
    b.send(&ClientMessage::ReportChat { id: line.id });
    b.send(&ClientMessage::ReportChat { id: line.id });
    b.send(&ClientMessage::Ping { id: 7 });
    b.until("pong", |m| match m {
        ServerMessage::Pong { id: 7 } => Some(()),
        ServerMessage::Error { code, message } => panic!("refused: {code:?} {message}"),
        _ => None,
    });
    w.send(&ClientMessage::ReportChat { id: line.id });
    assert_eq!(w.error(), ErrorCode::NoSuchLine);

    // Five lines at once, then the sixth waits.
    for _ in 0..4 {
        say(&mut v, Some(ChatPreset::WellPlayed), None);
    }
    say(&mut v, Some(ChatPreset::WellPlayed), None);
    say(&mut v, Some(ChatPreset::WellPlayed), None);
    let refused: Vec<_> = v
        .frames_for(Duration::from_secs(1))
        .into_iter()
        .filter_map(|m| match m {
            ServerMessage::Error { code, .. } => Some(code),
            _ => None,
        })
        .collect();
    assert_eq!(refused, vec![ErrorCode::RateLimited]);

    drop((a, b, w, v, late));
    drop(server);
    let db = rusqlite::Connection::open(&db).unwrap();
    let reports: i64 = db
        .query_row("SELECT COUNT(*) FROM chat_reports", [], |r| r.get(0))
        .unwrap();
    assert_eq!(reports, 1);
    let kept: (String, i64, u32, String, String, String, Option<String>) = db
        .query_row(
            "SELECT room, game_number, line, channel, said, name, side FROM chat_reports",
            [],
            |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                ))
            },
        )
        .unwrap();
    assert_eq!(
        kept,
        (
            room,
            1,
            line.id,
            "\"players\"".to_string(),
            "\"goodLuck\"".to_string(),
            ann_name,
            Some("\"x\"".to_string())
        )
    );
}
