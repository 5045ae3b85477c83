//! Challenges (`challenges.rs`): real clients offer games to anyone or to
//! one player by name, and accept, decline or withdraw them, against a
//! real `uttt-server`; `GET /api/challenges` lists them.

use std::time::Duration;

use crate::support::api::{json, player};
use crate::support::client::Client;
use crate::support::{fresh_db, players_server, Server};
use uttt_protocol::{
    ChallengeEnd, ClientMessage, ClockSetting, ColourChoice, ErrorCode, Kind, Role, RoomOptions,
    RoomState, RuleSet, ServerMessage, Side,
};

fn server() -> Server {
    players_server("challenges", &fresh_db(), &[])
}

/// Ultimate 3+2, rated or casual, the challenger on `colour`.
fn blitz(rated: bool, colour: ColourChoice) -> RoomOptions {
    RoomOptions {
        days: None,
        kind: Kind::Ultimate,
        rules: RuleSet::Standard,
        colour,
        clock: Some(ClockSetting {
            initial: 180,
            increment: 2,
        }),
        rated,
    }
}

/// A connection of the player with session `secret` that offers
/// `options` (to `to`, if any); returns it and the challenge's id.
fn challenger(
    server: &Server,
    secret: &str,
    options: RoomOptions,
    to: Option<&str>,
) -> (Client, String) {
    let mut client = Client::connect_as(server.addr, Some(secret));
    client.send(&ClientMessage::Challenge {
        options,
        to: to.map(str::to_string),
    });
    let id = client.until("challenging", |m| match m {
        ServerMessage::Challenging { id } => Some(id.clone()),
        ServerMessage::Error { code, message } => panic!("challenge refused: {code:?} {message}"),
        _ => None,
    });
    (client, id)
}

/// `GET /api/challenges` as the player with session `secret` (or nobody).
fn listed(server: &Server, secret: Option<&str>) -> serde_json::Value {
    let cookie = secret.map(|s| format!("Cookie: uttt_session={s}"));
    let headers: Vec<&str> = cookie.as_deref().into_iter().collect();
    json(&server.get("/api/challenges", &headers))
}

/// The ids in list `which` of a `GET /api/challenges` answer.
fn ids(answer: &serde_json::Value, which: &str) -> Vec<String> {
    answer[which]
        .as_array()
        .unwrap_or_else(|| panic!("no {which} in {answer}"))
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect()
}

/// The room `client` was seated in: its code, role and first full state.
fn seated(client: &mut Client) -> (String, Role, RoomState) {
    let (room, role, token) = client.until_within(Duration::from_secs(30), "joined", |m| match m {
        ServerMessage::Joined { room, role, token } => Some((room.clone(), *role, token.clone())),
        ServerMessage::Error { code, message } => panic!("refused: {code:?} {message}"),
        _ => None,
    });
    assert!(token.is_some(), "a seat without its token");
    let state = client.state(|s| s.x_name.is_some() && s.o_name.is_some());
    (room, role, state)
}

/// The `challengeEnded` reason `client` hears for challenge `id`.
fn ended(client: &mut Client, id: &str) -> ChallengeEnd {
    client.until("challengeEnded", |m| match m {
        ServerMessage::ChallengeEnded { id: ended, reason } if ended == id => Some(*reason),
        _ => None,
    })
}

/// Whether `client` hears any of `want` within `wait`.
fn hears(client: &mut Client, wait: Duration, want: impl Fn(&ServerMessage) -> bool) -> bool {
    client.frames_for(wait).iter().any(want)
}

#[test]
fn an_open_challenge_is_listed_then_accepted_into_a_rated_room() {
    let server = server();
    let (ann, ann_name) = player(&server);
    let (bob, bob_name) = player(&server);
    let (mut a, id) = challenger(&server, &ann, blitz(true, ColourChoice::O), None);

    // Listed for everyone but Ann, whose own it is.
    let anyone = listed(&server, None);
    assert_eq!(ids(&anyone, "open"), vec![id.clone()], "{anyone}");
    assert_eq!(ids(&anyone, "forYou"), Vec::<String>::new());
    let row = &anyone["open"][0];
    assert_eq!(row["name"], ann_name.as_str());
    assert_eq!(
        (row["rating"].as_i64(), row["provisional"].as_bool()),
        (Some(1500), Some(true))
    );
    assert_eq!(row["perf"], "ultimate-blitz");
    assert_eq!(
        (row["kind"].as_str(), row["rules"].as_str()),
        (Some("ultimate"), Some("standard"))
    );
    assert_eq!(row["clock"]["initial"], 180);
    assert_eq!(
        (row["rated"].as_bool(), row["side"].as_str()),
        (Some(true), Some("o"))
    );
    assert!(row.get("to").is_none(), "{row}");
    assert!(row["since"].as_u64().unwrap() > 1_700_000_000_000, "{row}");
    let own = listed(&server, Some(&ann));
    assert!(ids(&own, "open").is_empty(), "{own}");
    assert_eq!(ids(&own, "yours"), vec![id.clone()]);

    let mut b = Client::connect_as(server.addr, Some(&bob));
    b.send(&ClientMessage::AcceptChallenge { id: id.clone() });
    let (room_a, role_a, state) = seated(&mut a);
    let (room_b, role_b, _) = seated(&mut b);
    assert_eq!(room_a, room_b);
    assert_ne!(role_a, role_b);
    // Ann asked for O.
    assert_eq!(state.side_of(role_a), Some(Side::O));
    assert_eq!(state.o_name.as_deref(), Some(ann_name.as_str()));
    assert_eq!(state.x_name.as_deref(), Some(bob_name.as_str()));
    assert!(state.options.rated);
    assert_eq!(state.options.clock, blitz(true, ColourChoice::O).clock);
    let stakes = state.stakes.expect("a rated game's stakes");
    assert_eq!((stakes.x.win, stakes.o.loss), (162, -162));
    // Gone from the list; accepting it again says it was taken.
    assert!(ids(&listed(&server, None), "open").is_empty());
    let (cid, _) = player(&server);
    let mut c = Client::connect_as(server.addr, Some(&cid));
    c.send(&ClientMessage::AcceptChallenge { id });
    assert_eq!(c.error(), ErrorCode::ChallengeTaken);
}

#[test]
fn a_challenge_by_name_is_for_its_addressee_only_who_may_decline_it() {
    let server = server();
    let (ann, ann_name) = player(&server);
    let (bob, bob_name) = player(&server);
    let (cid, _) = player(&server);
    let (mut a, id) = challenger(
        &server,
        &ann,
        blitz(false, ColourChoice::X),
        Some(&bob_name),
    );

    assert!(ids(&listed(&server, None), "open").is_empty());
    assert!(ids(&listed(&server, Some(&cid)), "forYou").is_empty());
    let for_bob = listed(&server, Some(&bob));
    assert_eq!(ids(&for_bob, "forYou"), vec![id.clone()], "{for_bob}");
    assert_eq!(for_bob["forYou"][0]["to"], bob_name.as_str());
    assert_eq!(for_bob["forYou"][0]["name"], ann_name.as_str());
    assert_eq!(ids(&listed(&server, Some(&ann)), "yours"), vec![id.clone()]);

    // Cid may neither accept nor decline it; nothing changes.
    let mut c = Client::connect_as(server.addr, Some(&cid));
    c.send(&ClientMessage::AcceptChallenge { id: id.clone() });
    assert_eq!(c.error(), ErrorCode::NotForYou);
    c.send(&ClientMessage::DeclineChallenge { id: id.clone() });
    assert_eq!(c.error(), ErrorCode::NotForYou);
    assert_eq!(
        ids(&listed(&server, Some(&bob)), "forYou"),
        vec![id.clone()]
    );

    let mut b = Client::connect_as(server.addr, Some(&bob));
    b.send(&ClientMessage::DeclineChallenge { id: id.clone() });
    assert_eq!(ended(&mut b, &id), ChallengeEnd::Declined);
    assert_eq!(ended(&mut a, &id), ChallengeEnd::Declined);
    assert!(ids(&listed(&server, Some(&bob)), "forYou").is_empty());
    b.send(&ClientMessage::AcceptChallenge { id: id.clone() });
    assert_eq!(b.error(), ErrorCode::ChallengeDeclined);

    // Ann's connection may offer again; Bob accepts this one.
    a.send(&ClientMessage::Challenge {
        options: blitz(false, ColourChoice::X),
        to: Some(bob_name.to_uppercase()),
    });
    let again = a.until("challenging", |m| match m {
        ServerMessage::Challenging { id } => Some(id.clone()),
        _ => None,
    });
    b.send(&ClientMessage::AcceptChallenge { id: again });
    let (_, role_a, state) = seated(&mut a);
    seated(&mut b);
    assert_eq!(state.side_of(role_a), Some(Side::X));
    assert!(!state.options.rated);
    assert!(state.stakes.is_none());
}

#[test]
fn cancelling_or_closing_withdraws_a_challenge() {
    let server = server();
    let (ann, _) = player(&server);
    let (bob, _) = player(&server);
    let (mut a, id) = challenger(&server, &ann, blitz(true, ColourChoice::Random), None);
    // Nothing else on that connection while it waits.
    a.send(&ClientMessage::AcceptChallenge { id: id.clone() });
    assert_eq!(a.error(), ErrorCode::Seeking);
    a.send(&ClientMessage::CancelSeek {});
    assert_eq!(a.error(), ErrorCode::NotSeeking);
    a.send(&ClientMessage::CancelChallenge {});
    assert_eq!(ended(&mut a, &id), ChallengeEnd::Withdrawn);
    a.send(&ClientMessage::CancelChallenge {});
    assert_eq!(a.error(), ErrorCode::NotChallenging);
    assert!(ids(&listed(&server, None), "open").is_empty());
    let mut b = Client::connect_as(server.addr, Some(&bob));
    b.send(&ClientMessage::AcceptChallenge { id });
    assert_eq!(b.error(), ErrorCode::ChallengeWithdrawn);

    let (gone, id) = challenger(&server, &ann, blitz(true, ColourChoice::Random), None);
    assert_eq!(ids(&listed(&server, None), "open"), vec![id.clone()]);
    drop(gone);
    // The lobby sees the closed connection within a tick or so.
    let mut waited = 0;
    while !ids(&listed(&server, None), "open").is_empty() {
        waited += 1;
        assert!(waited < 50, "a closed challenger's challenge stays listed");
        std::thread::sleep(Duration::from_millis(100));
    }
    b.send(&ClientMessage::AcceptChallenge { id });
    assert_eq!(b.error(), ErrorCode::ChallengeWithdrawn);
    // Bob's connection is still free to accept another.
    let (mut a, id) = challenger(&server, &ann, blitz(true, ColourChoice::Random), None);
    b.send(&ClientMessage::AcceptChallenge { id });
    assert_eq!(seated(&mut a).0, seated(&mut b).0);
}

#[test]
fn nobody_challenges_themselves_an_unknown_name_or_more_than_the_cap() {
    let server = server();
    let (ann, ann_name) = player(&server);
    let mut a = Client::connect_as(server.addr, Some(&ann));
    for (to, code) in [
        (ann_name.as_str(), ErrorCode::OwnChallenge),
        ("nobody-at-all-here", ErrorCode::NoSuchPlayer),
        ("", ErrorCode::NoSuchPlayer),
    ] {
        a.send(&ClientMessage::Challenge {
            options: blitz(false, ColourChoice::X),
            to: Some(to.to_string()),
        });
        assert_eq!(a.error(), code, "to {to:?}");
    }
    // Rated needs a clock; a guest may not challenge at all.
    a.send(&ClientMessage::Challenge {
        options: RoomOptions {
            days: None,
            clock: None,
            ..blitz(true, ColourChoice::X)
        },
        to: None,
    });
    assert_eq!(a.error(), ErrorCode::BadOptions);
    let mut guest = Client::connect(server.addr);
    guest.send(&ClientMessage::Challenge {
        options: blitz(false, ColourChoice::X),
        to: None,
    });
    assert_eq!(guest.error(), ErrorCode::NotSignedIn);
    assert!(ids(&listed(&server, None), "open").is_empty());

    // Ann's own challenge, from another tab: refused.
    let (_first, id) = challenger(&server, &ann, blitz(false, ColourChoice::X), None);
    a.send(&ClientMessage::AcceptChallenge { id });
    assert_eq!(a.error(), ErrorCode::OwnChallenge);
    // Three wait at once at most.
    let (_second, _) = challenger(&server, &ann, blitz(false, ColourChoice::X), None);
    let (_third, _) = challenger(&server, &ann, blitz(false, ColourChoice::X), None);
    let mut fourth = Client::connect_as(server.addr, Some(&ann));
    fourth.send(&ClientMessage::Challenge {
        options: blitz(false, ColourChoice::X),
        to: None,
    });
    assert_eq!(fourth.error(), ErrorCode::TooManyChallenges);
    assert_eq!(ids(&listed(&server, Some(&ann)), "yours").len(), 3);
}

#[test]
fn bad_challenge_frames_change_nothing() {
    let server = server();
    let (ann, _) = player(&server);
    let (bob, _) = player(&server);
    let (mut a, id) = challenger(&server, &ann, blitz(false, ColourChoice::X), None);
    let mut b = Client::connect_as(server.addr, Some(&bob));
    b.send(&ClientMessage::AcceptChallenge {
        id: "no-such-id".into(),
    });
    assert_eq!(b.error(), ErrorCode::NoSuchChallenge);
    b.send(&ClientMessage::DeclineChallenge {
        id: "no-such-id".into(),
    });
    assert_eq!(b.error(), ErrorCode::NoSuchChallenge);
    // An open challenge is not declined: it is left to others.
    b.send(&ClientMessage::DeclineChallenge { id: id.clone() });
    assert_eq!(b.error(), ErrorCode::NotForYou);
    for text in [
        r#"{"v":1,"type":"acceptChallenge","id":7}"#,
        r#"{"v":1,"type":"acceptChallenge"}"#,
        r#"{"v":1,"type":"acceptChallenge","id":"x","extra":1}"#,
        r#"{"v":1,"type":"challenge","options":{"kind":"ultimate"}}"#,
        r#"{"v":1,"type":"challenge","options":{"kind":"ultimate","rules":"standard","colour":"x","clock":null},"to":5}"#,
        r#"{"v":1,"type":"declineChallenge","id":null}"#,
        r#"{"v":1,"type":"cancelChallenge","id":"x"}"#,
    ] {
        b.send_raw(text);
        assert_eq!(b.error(), ErrorCode::BadMessage, "{text}");
    }
    assert_eq!(ids(&listed(&server, None), "open"), vec![id.clone()]);
    assert!(!hears(&mut a, Duration::from_millis(300), |m| !matches!(
        m,
        ServerMessage::Pong { .. }
    )));
    // Still there, still acceptable.
    b.send(&ClientMessage::AcceptChallenge { id });
    assert_eq!(seated(&mut a).0, seated(&mut b).0);
}
