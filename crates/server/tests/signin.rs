//! Signing in on another device (docs/api.md): passwords, the limits on
//! attempts, and the passkey ceremonies' refusals, against a real
//! `uttt-server` and its SQLite file. The passkey ceremony itself needs an
//! authenticator: tests/account.spec.js runs it with Chromium's.

use crate::support::api::{call, new_player, Who};
use crate::support::{fresh_db, small_site, Server};

fn server(db: &std::path::Path) -> Server {
    let site = small_site("signin");
    Server::start(&[
        "--site",
        site.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ])
}

fn sign_in(server: &Server, name: &str, password: &str) -> crate::support::api::Reply {
    let body = serde_json::json!({ "name": name, "password": password }).to_string();
    call(server, "POST", "/api/signin", &Who::default(), &body)
}

fn set_password(
    server: &Server,
    from: &Who,
    password: &str,
    current: Option<&str>,
) -> crate::support::api::Reply {
    let body = match current {
        Some(current) => serde_json::json!({ "password": password, "current": current }),
        None => serde_json::json!({ "password": password }),
    };
    call(server, "POST", "/api/me/password", from, &body.to_string())
}

#[test]
fn a_password_signs_the_player_in_on_a_fresh_client() {
    let db = fresh_db();
    let server = server(&db);
    let (ann, name, csrf) = new_player(&server);
    let page = Who::page(&ann, &csrf);

    // Who is signed in, asked without an error either way.
    let nobody = call(&server, "GET", "/api/session", &Who::default(), "");
    assert_eq!((nobody.status, nobody.body["name"].is_null()), (200, true));
    let who = call(&server, "GET", "/api/session", &page, "");
    assert_eq!(who.body["name"], name.as_str(), "{}", who.raw);

    let short = set_password(&server, &page, "1234567", None);
    assert_eq!((short.status, short.error()), (400, "bad-password"));
    let set = set_password(&server, &page, "correct horse", None);
    assert_eq!(set.status, 204, "{}", set.raw);

    // Another device: the name in any case and the password.
    let signed = sign_in(&server, &name.to_uppercase(), "correct horse");
    assert_eq!(signed.status, 200, "{}", signed.raw);
    assert_eq!(signed.body["name"], name.as_str());
    let cookie = signed.header("set-cookie").unwrap().to_string();
    for part in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=31536000"] {
        assert!(cookie.contains(part), "{cookie}");
    }
    assert!(!cookie.contains("Secure"), "plain http: {cookie}");
    let other = signed.secret();
    assert_ne!(other, ann);
    let other_csrf = signed.body["csrf"].as_str().unwrap().to_string();
    assert_ne!(other_csrf, csrf);
    let me = call(
        &server,
        "GET",
        "/api/me",
        &Who::page(&other, &other_csrf),
        "",
    );
    assert_eq!(me.body["name"], name.as_str(), "{}", me.raw);
    let sessions = call(&server, "GET", "/api/me/sessions", &page, "");
    assert_eq!(
        sessions.body["sessions"].as_array().unwrap().len(),
        2,
        "{}",
        sessions.raw
    );

    // A wrong password and a name nobody has: the same answer.
    let wrong = sign_in(&server, &name, "correct horsf");
    let unknown = sign_in(&server, "NobodyHere1", "correct horse");
    assert_eq!((wrong.status, wrong.error()), (401, "wrong-credentials"));
    assert_eq!(wrong.status, unknown.status);
    assert_eq!(wrong.body, unknown.body);
    assert!(wrong.header("set-cookie").is_none());
    let long = sign_in(&server, &name, &"x".repeat(10_000));
    assert_eq!((long.status, long.error()), (401, "wrong-credentials"));

    // A change needs the current password, and the right one.
    let bare = set_password(&server, &page, "battery staple", None);
    assert_eq!((bare.status, bare.error()), (400, "current-needed"));
    let guessed = set_password(&server, &page, "battery staple", Some("guess1234"));
    assert_eq!((guessed.status, guessed.error()), (403, "wrong-password"));
    let changed = set_password(&server, &page, "battery staple", Some("correct horse"));
    assert_eq!(changed.status, 204, "{}", changed.raw);
    // Whoever knew the old password is signed out; the page that changed it is not.
    let elsewhere = call(
        &server,
        "GET",
        "/api/me",
        &Who::page(&other, &other_csrf),
        "",
    );
    assert_eq!(elsewhere.status, 401, "{}", elsewhere.raw);
    let here = call(&server, "GET", "/api/me/sessions", &page, "");
    assert_eq!(here.status, 200, "{}", here.raw);
    assert_eq!(
        here.body["sessions"].as_array().unwrap().len(),
        1,
        "{}",
        here.raw
    );
    assert_eq!(sign_in(&server, &name, "correct horse").status, 401);
    assert_eq!(sign_in(&server, &name, "battery staple").status, 200);

    // The log says who signed in and who was refused, never a password.
    let log = server.lines().join("\n");
    assert!(
        log.contains(&format!("sign-in: {name} with a password")),
        "{log}"
    );
    assert!(log.contains("NobodyHere1 refused"), "{log}");
    assert!(
        !log.contains("correct horse") && !log.contains("battery"),
        "{log}"
    );

    // Only a salted Argon2id hash is in the file.
    drop(server);
    let file = rusqlite::Connection::open(&db).unwrap();
    let kept: String = file
        .query_row(
            "SELECT password FROM players WHERE name = ?1",
            [&name],
            |r| r.get(0),
        )
        .unwrap();
    assert!(
        kept.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
        "{kept}"
    );
}

#[test]
fn a_password_is_set_only_by_the_players_page_and_signed_in_from_this_site() {
    let db = fresh_db();
    let server = server(&db);
    let (ann, name, csrf) = new_player(&server);
    let body = r#"{"password":"correct horse"}"#;

    let no_token = Who {
        csrf: None,
        ..Who::page(&ann, &csrf)
    };
    let refused = call(&server, "POST", "/api/me/password", &no_token, body);
    assert_eq!((refused.status, refused.error()), (403, "bad-csrf"));
    let foreign = Who {
        origin: Some("http://evil.example".into()),
        ..Who::page(&ann, &csrf)
    };
    let refused = call(&server, "POST", "/api/me/password", &foreign, body);
    assert_eq!((refused.status, refused.error()), (403, "bad-origin"));
    let nobody = Who::page(&"ef".repeat(32), &csrf);
    let refused = call(&server, "POST", "/api/me/password", &nobody, body);
    assert_eq!((refused.status, refused.error()), (401, "signed-out"));
    let junk = call(
        &server,
        "POST",
        "/api/me/password",
        &Who::page(&ann, &csrf),
        r#"{"pass":1}"#,
    );
    assert_eq!((junk.status, junk.error()), (400, "bad-body"));
    // None of those set it.
    assert_eq!(sign_in(&server, &name, "correct horse").status, 401);

    let set = call(
        &server,
        "POST",
        "/api/me/password",
        &Who::page(&ann, &csrf),
        body,
    );
    assert_eq!(set.status, 204);
    let login = serde_json::json!({ "name": name, "password": "correct horse" }).to_string();
    for origin in ["http://evil.example", ""] {
        let from = Who {
            origin: Some(origin.into()),
            ..Who::default()
        };
        let refused = call(&server, "POST", "/api/signin", &from, &login);
        assert_eq!((refused.status, refused.error()), (403, "bad-origin"));
        assert!(refused.header("set-cookie").is_none());
    }
    let junk = call(&server, "POST", "/api/signin", &Who::default(), "{}");
    assert_eq!((junk.status, junk.error()), (400, "bad-body"));
}

#[test]
fn failures_hold_a_name_back_and_one_address_is_limited() {
    let db = fresh_db();
    let server = server(&db);
    let (ann, name, csrf) = new_player(&server);
    let (bob, bob_name, bob_csrf) = new_player(&server);
    for (secret, csrf) in [(&ann, &csrf), (&bob, &bob_csrf)] {
        let set = set_password(&server, &Who::page(secret, csrf), "correct horse", None);
        assert_eq!(set.status, 204);
    }
    for n in 1..=5 {
        let wrong = sign_in(&server, &name, &format!("wrong guess {n}"));
        assert_eq!(wrong.status, 401, "attempt {n}: {}", wrong.raw);
    }
    // The right password too waits now, for that name only.
    let held = sign_in(&server, &name.to_lowercase(), "correct horse");
    assert_eq!((held.status, held.error()), (429, "too-many-attempts"));
    let wait: u64 = held.header("retry-after").unwrap().parse().unwrap();
    assert!((60..=900).contains(&wait), "{wait}");
    assert!(held.header("set-cookie").is_none());
    assert_eq!(sign_in(&server, &bob_name, "correct horse").status, 200);

    // 20 attempts from one address at once (7 made above), then 10 a minute.
    // (A token comes back every 6 s: one may while this runs.)
    let mut refused = 0;
    let last = loop {
        let reply = sign_in(&server, &format!("Nobody{refused}"), "whatever1");
        if reply.status != 401 || refused > 20 {
            break reply;
        }
        refused += 1;
    };
    assert!((13..=14).contains(&refused), "{refused}");
    assert_eq!((last.status, last.error()), (429, "too-many-attempts"));
    assert!(last.header("retry-after").is_some());
    assert!(server.lines().join("\n").contains("held back"));
}

#[test]
fn a_deleted_account_keeps_no_password_nor_passkey_and_signs_nobody_in() {
    let db = fresh_db();
    let first = server(&db);
    let (ann, name, csrf) = new_player(&first);
    assert_eq!(
        set_password(&first, &Who::page(&ann, &csrf), "correct horse", None).status,
        204
    );
    drop(first);
    // A passkey row as a ceremony would leave it (its content is not read here).
    let file = rusqlite::Connection::open(&db).unwrap();
    file.execute(
        "INSERT INTO passkeys (player, credential, passkey, label, created_ms)
         SELECT id, 'c0ffee', '{}', 'Phone', 1 FROM players WHERE name = ?1",
        [&name],
    )
    .unwrap();
    drop(file);

    let server = server(&db);
    let listed = call(
        &server,
        "GET",
        "/api/me/passkeys",
        &Who::page(&ann, &csrf),
        "",
    );
    assert_eq!(
        listed.body["passkeys"][0]["label"], "Phone",
        "{}",
        listed.raw
    );
    assert_eq!(listed.body["password"], true);
    let gone = call(&server, "DELETE", "/api/me", &Who::page(&ann, &csrf), "");
    assert_eq!(gone.status, 204, "{}", gone.raw);
    let refused = sign_in(&server, &name, "correct horse");
    assert_eq!(
        (refused.status, refused.error()),
        (401, "wrong-credentials")
    );
    drop(server);

    let file = rusqlite::Connection::open(&db).unwrap();
    let (password, passkeys): (Option<String>, i64) = file
        .query_row(
            "SELECT password, (SELECT count(*) FROM passkeys) FROM players WHERE deleted_ms IS NOT NULL",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!((password, passkeys), (None, 0));
}

/// A registration answer's shape with nothing a passkey would sign.
const JUNK_REGISTRATION: &str = r#"{"id":"AAAA","rawId":"AAAA","type":"public-key",
    "response":{"attestationObject":"AAAA","clientDataJSON":"AAAA"}}"#;
/// A sign-in answer's shape with nothing a passkey would sign.
const JUNK_ASSERTION: &str = r#"{"id":"AAAA","rawId":"AAAA","type":"public-key",
    "response":{"authenticatorData":"AAAA","clientDataJSON":"AAAA","signature":"AAAA"}}"#;

#[test]
fn passkey_ceremonies_refuse_what_no_authenticator_signed() {
    let db = fresh_db();
    let server = server(&db);
    let (ann, name, csrf) = new_player(&server);
    let (bob, _, bob_csrf) = new_player(&server);
    let ann_here = Who::page(&ann, &csrf).at_localhost(&server);

    // No session; a page at an IP address (WebAuthn needs a name).
    let nobody = Who::default().at_localhost(&server);
    let start = call(&server, "POST", "/api/me/passkeys/start", &nobody, "");
    assert_eq!((start.status, start.error()), (401, "signed-out"));
    let at_ip = call(
        &server,
        "POST",
        "/api/me/passkeys/start",
        &Who::page(&ann, &csrf),
        "",
    );
    assert_eq!(
        (at_ip.status, at_ip.error()),
        (400, "passkeys-need-a-name"),
        "{}",
        at_ip.raw
    );

    // At localhost: the options for the browser, and a ceremony id.
    let start = call(&server, "POST", "/api/me/passkeys/start", &ann_here, "");
    assert_eq!(start.status, 200, "{}", start.raw);
    let options = &start.body["options"]["publicKey"];
    assert_eq!(options["rp"]["id"], "localhost", "{}", start.raw);
    assert_eq!(options["user"]["name"], name.as_str());
    assert!(options["challenge"].as_str().unwrap().len() >= 43);
    let ceremony = start.body["ceremony"].as_str().unwrap().to_string();

    // Another player cannot finish it, and then it is gone.
    let body =
        |ceremony: &str| format!(r#"{{"ceremony":"{ceremony}","credential":{JUNK_REGISTRATION}}}"#);
    let bob_here = Who::page(&bob, &bob_csrf).at_localhost(&server);
    let theirs = call(
        &server,
        "POST",
        "/api/me/passkeys/finish",
        &bob_here,
        &body(&ceremony),
    );
    assert_eq!((theirs.status, theirs.error()), (400, "bad-ceremony"));
    let gone = call(
        &server,
        "POST",
        "/api/me/passkeys/finish",
        &ann_here,
        &body(&ceremony),
    );
    assert_eq!((gone.status, gone.error()), (400, "bad-ceremony"));
    // A fresh one, answered with nothing signed: refused, nothing kept.
    let start = call(&server, "POST", "/api/me/passkeys/start", &ann_here, "");
    let ceremony = start.body["ceremony"].as_str().unwrap().to_string();
    let forged = call(
        &server,
        "POST",
        "/api/me/passkeys/finish",
        &ann_here,
        &body(&ceremony),
    );
    assert_eq!(
        (forged.status, forged.error()),
        (400, "passkey-refused"),
        "{}",
        forged.raw
    );
    let junk = call(&server, "POST", "/api/me/passkeys/finish", &ann_here, "{}");
    assert_eq!((junk.status, junk.error()), (400, "bad-body"));
    let listed = call(&server, "GET", "/api/me/passkeys", &ann_here, "");
    assert_eq!(
        listed.body["passkeys"],
        serde_json::json!([]),
        "{}",
        listed.raw
    );
    assert_eq!(listed.body["password"], false);
    let none = call(&server, "DELETE", "/api/me/passkeys/1", &ann_here, "");
    assert_eq!((none.status, none.error()), (404, "no-such-passkey"));

    // Signing in: a name nobody has, a player with no passkey, a ceremony
    // that is not one.
    let page = Who::default().at_localhost(&server);
    let start = |name: &str| {
        let body = serde_json::json!({ "name": name }).to_string();
        call(&server, "POST", "/api/signin/passkey/start", &page, &body)
    };
    let at_ip = call(
        &server,
        "POST",
        "/api/signin/passkey/start",
        &Who::default(),
        &serde_json::json!({ "name": name }).to_string(),
    );
    assert_eq!((at_ip.status, at_ip.error()), (400, "passkeys-need-a-name"));
    let unknown = start("NobodyHere1");
    assert_eq!((unknown.status, unknown.error()), (404, "no-such-player"));
    let without = start(&name);
    assert_eq!((without.status, without.error()), (404, "no-passkey"));
    let finish = format!(
        r#"{{"ceremony":"{}","credential":{JUNK_ASSERTION}}}"#,
        "ab".repeat(16)
    );
    let bad = call(
        &server,
        "POST",
        "/api/signin/passkey/finish",
        &page,
        &finish,
    );
    assert_eq!(
        (bad.status, bad.error()),
        (400, "bad-ceremony"),
        "{}",
        bad.raw
    );
    assert!(bad.header("set-cookie").is_none());
    let foreign = Who {
        origin: Some("http://evil.example".into()),
        ..page.clone()
    };
    let refused = call(
        &server,
        "POST",
        "/api/signin/passkey/finish",
        &foreign,
        &finish,
    );
    assert_eq!((refused.status, refused.error()), (403, "bad-origin"));
}
