//! A room's chat (docs/protocol.md, "Chat"): the players' lines, which
//! watchers never see, and the watchers' own, which the players never see
//! (nobody helps a player). Each keeps its latest `KEPT` lines in memory,
//! sent to whoever joins; a line is a preset, which every page says in its
//! own language, or typed words, checked here and always shown as text.
//! A reported line is stored with its game for the moderators.

use std::collections::{HashSet, VecDeque};

use rusqlite::params;
use uttt_protocol::{
    ChatChannel, ChatLine, ChatPreset, ErrorCode, Refusal, Role, Side, MAX_CHAT_CHARS,
};

use crate::store::{ms_to_sql, Store};

/// Lines each chat keeps.
pub const KEPT: usize = 50;

/// What a line says: a preset or typed words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    /// A preset message.
    Preset(ChatPreset),
    /// Typed words, checked.
    Text(String),
}

/// Checks a line as a client sent it: exactly one of a preset and text;
/// text is trimmed, 1 to `MAX_CHAT_CHARS` characters, without control
/// characters (a line break is one).
///
/// # Errors
/// `bad-chat`, saying what is wrong.
pub fn check(preset: Option<ChatPreset>, text: Option<String>) -> Result<Said, Refusal> {
    let bad = |why: &str| Refusal::new(ErrorCode::BadChat, why);
    match (preset, text) {
        (Some(preset), None) => Ok(Said::Preset(preset)),
        (None, Some(text)) => {
            let text = text.trim();
            if text.is_empty() {
                return Err(bad("a chat line says something"));
            }
            if text.chars().count() > MAX_CHAT_CHARS {
                return Err(bad("a chat line is at most 140 characters"));
            }
            if text.chars().any(char::is_control) {
                return Err(bad("a chat line is one line of text"));
            }
            Ok(Said::Text(text.to_string()))
        }
        _ => Err(bad("a chat line is one preset or some text")),
    }
}

/// The chat a connection in `role` reads and writes.
#[must_use]
pub fn channel_of(role: Role) -> ChatChannel {
    match role {
        Role::Spectator => ChatChannel::Spectators,
        Role::Seat0 | Role::Seat1 => ChatChannel::Players,
    }
}

/// Reports one room keeps while in memory, at most.
pub const MAX_REPORTS: usize = 100;

/// A room's two chats.
#[derive(Debug, Default)]
pub struct Chat {
    players: VecDeque<ChatLine>,
    spectators: VecDeque<ChatLine>,
    next_id: u32,
    /// The lines reported, by connection: each is kept once.
    reported: HashSet<(u64, u32)>,
}

impl Chat {
    fn lines_mut(&mut self, channel: ChatChannel) -> &mut VecDeque<ChatLine> {
        match channel {
            ChatChannel::Players => &mut self.players,
            ChatChannel::Spectators => &mut self.spectators,
        }
    }

    /// Adds a line to `channel`, said by `name` (a player's side in the
    /// players' chat) at `at`; returns it.
    pub fn add(
        &mut self,
        channel: ChatChannel,
        (side, name): (Option<Side>, Option<String>),
        said: Said,
        at: u64,
    ) -> ChatLine {
        self.next_id += 1;
        let (preset, text) = match said {
            Said::Preset(preset) => (Some(preset), None),
            Said::Text(text) => (None, Some(text)),
        };
        let line = ChatLine {
            id: self.next_id,
            channel,
            side,
            name,
            preset,
            text,
            at,
        };
        let lines = self.lines_mut(channel);
        lines.push_back(line.clone());
        if lines.len() > KEPT {
            lines.pop_front();
        }
        line
    }

    /// The lines `channel` keeps, oldest first.
    #[must_use]
    pub fn lines(&self, channel: ChatChannel) -> Vec<ChatLine> {
        match channel {
            ChatChannel::Players => self.players.iter().cloned().collect(),
            ChatChannel::Spectators => self.spectators.iter().cloned().collect(),
        }
    }

    /// Line `id` of `channel`, while it is kept.
    #[must_use]
    pub fn find(&self, channel: ChatChannel, id: u32) -> Option<ChatLine> {
        self.lines(channel).into_iter().find(|line| line.id == id)
    }

    /// Notes connection `conn`'s report of line `id`: true the first time,
    /// while the room has kept fewer than `MAX_REPORTS`; false for one to
    /// answer without keeping it again.
    pub fn first_report(&mut self, conn: u64, id: u32) -> bool {
        self.reported.len() < MAX_REPORTS && self.reported.insert((conn, id))
    }
}

/// A reported line, as it is kept for the moderators.
#[derive(Clone, Debug)]
pub struct Report {
    /// The room and which of its games.
    pub room: String,
    /// Its game number.
    pub game_number: u32,
    /// The game's record when the line was reported.
    pub record: String,
    /// The line.
    pub line: ChatLine,
    /// The reporting player, when signed in.
    pub reporter: Option<i64>,
    /// When it was reported (ms since the epoch).
    pub at: u64,
}

/// Stores `report` (`chat_reports`, migration 07).
///
/// # Errors
/// The store's.
pub async fn store_report(store: &Store, report: Report) -> Result<(), String> {
    store
        .write(move |c| {
            let said = match (report.line.preset, &report.line.text) {
                (Some(preset), _) => serde_json::to_string(&preset).unwrap_or_default(),
                (None, text) => text.clone().unwrap_or_default(),
            };
            c.execute(
                "INSERT INTO chat_reports (room, game_number, record, line, channel, side, name,
                    said, said_ms, reporter, reported_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                params![
                    report.room,
                    report.game_number,
                    report.record,
                    report.line.id,
                    serde_json::to_string(&report.line.channel).unwrap_or_default(),
                    report
                        .line
                        .side
                        .map(|s| serde_json::to_string(&s).unwrap_or_default()),
                    report.line.name,
                    said,
                    ms_to_sql(report.line.at),
                    report.reporter,
                    ms_to_sql(report.at),
                ],
            )
            .map(drop)
            .map_err(|e| format!("cannot keep the report: {e}"))
        })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_checked_and_each_chat_keeps_its_latest() {
        assert_eq!(
            check(Some(ChatPreset::GoodLuck), None).unwrap(),
            Said::Preset(ChatPreset::GoodLuck)
        );
        assert_eq!(
            check(None, Some("  gl hf  ".into())).unwrap(),
            Said::Text("gl hf".into())
        );
        for bad in [
            check(None, None),
            check(Some(ChatPreset::Hello), Some("hi".into())),
            check(None, Some("   ".into())),
            check(None, Some("two\nlines".into())),
            check(None, Some("x".repeat(141))),
        ] {
            assert_eq!(bad.unwrap_err().code, ErrorCode::BadChat);
        }
        assert!(check(None, Some("é".repeat(140))).is_ok());

        let mut chat = Chat::default();
        for i in 0..60 {
            chat.add(
                ChatChannel::Spectators,
                (None, None),
                Said::Text(format!("{i}")),
                i,
            );
        }
        let hello = chat.add(
            ChatChannel::Players,
            (Some(Side::X), Some("ann".into())),
            Said::Preset(ChatPreset::Hello),
            99,
        );
        let watchers = chat.lines(ChatChannel::Spectators);
        assert_eq!(watchers.len(), KEPT);
        assert_eq!(watchers[0].text.as_deref(), Some("10"));
        assert_eq!(chat.lines(ChatChannel::Players), vec![hello.clone()]);
        assert_eq!(
            chat.find(ChatChannel::Players, hello.id),
            Some(hello.clone())
        );
        // A line is found only in its own chat.
        assert_eq!(chat.find(ChatChannel::Spectators, hello.id), None);
    }
}
