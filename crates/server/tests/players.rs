//! Players and sessions over the JSON API (docs/api.md), against a real
//! `uttt-server` and its SQLite file.

mod support;

use support::{fresh_db, header, small_site, Server};

fn server(db: &std::path::Path) -> Server {
    let site = small_site("players");
    Server::start(&[
        "--site",
        site.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ])
}

/// The status code of a raw HTTP answer.
fn status(reply: &str) -> u16 {
    reply
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// The JSON body of a raw HTTP answer (bodies here are small, never
/// chunked by the server... but read past any chunk size line all the same).
fn json(reply: &str) -> serde_json::Value {
    let body = reply.split("\r\n\r\n").nth(1).unwrap_or_default();
    let start = body.find('{').unwrap_or(0);
    let end = body.rfind('}').map_or(body.len(), |i| i + 1);
    serde_json::from_str(&body[start..end]).unwrap_or(serde_json::Value::Null)
}

/// `POST /api/session` from this server's own page.
fn sign_up(server: &Server, cookie: Option<&str>) -> String {
    let origin = format!("Origin: http://{}", server.addr);
    let cookie = cookie.map(|c| format!("Cookie: uttt_session={c}"));
    let mut headers = vec![origin.as_str(), "Content-Length: 0"];
    headers.extend(cookie.as_deref());
    server.request("POST", "/api/session", &headers)
}

/// The session secret a `Set-Cookie` answer gives.
fn secret(reply: &str) -> String {
    let cookie = header(reply, "set-cookie").expect("a session cookie");
    cookie
        .strip_prefix("uttt_session=")
        .and_then(|rest| rest.split(';').next())
        .expect("the cookie's value")
        .to_string()
}

#[test]
fn a_first_online_action_makes_a_player_with_a_readable_name() {
    let db = fresh_db();
    let server = server(&db);
    let made = sign_up(&server, None);
    assert_eq!(status(&made), 201, "{made}");
    let cookie = header(&made, "set-cookie").unwrap().to_string();
    for part in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(cookie.contains(part), "{cookie}");
    }
    assert!(!cookie.contains("Secure"), "plain http: {cookie}");
    let name = json(&made)["name"].as_str().unwrap().to_string();
    assert!(
        (3..=20).contains(&name.len()) && name.starts_with(|c: char| c.is_ascii_uppercase()),
        "{name}"
    );
    let secret = secret(&made);

    // The session says who this is; the same session makes nobody new.
    let me = server.get("/api/me", &[&format!("Cookie: uttt_session={secret}")]);
    assert_eq!(status(&me), 200, "{me}");
    assert_eq!(json(&me)["name"], name.as_str());
    let again = sign_up(&server, Some(&secret));
    assert_eq!(status(&again), 200, "{again}");
    assert_eq!(json(&again)["name"], name.as_str());
    assert!(header(&again, "set-cookie").is_none());

    // The public page, by the name in any case.
    let page = server.get(&format!("/api/players/{}", name.to_lowercase()), &[]);
    assert_eq!(status(&page), 200, "{page}");
    assert_eq!(json(&page)["name"], name.as_str());
    assert!(json(&page)["created"].as_u64().unwrap() > 0);

    // Only a hash of the secret is in the file.
    drop(server);
    let file = std::fs::read(&db).unwrap();
    let text = String::from_utf8_lossy(&file);
    assert!(
        !text.contains(&secret),
        "the session's secret is stored as is"
    );
}

#[test]
fn no_session_no_player_and_no_stranger_page_makes_one() {
    let db = fresh_db();
    let server = server(&db);
    let me = server.get("/api/me", &[]);
    assert_eq!(status(&me), 401, "{me}");
    assert_eq!(json(&me)["error"], "signed-out");
    let forged = server.get(
        "/api/me",
        &[&format!("Cookie: uttt_session={}", "ab".repeat(32))],
    );
    assert_eq!(status(&forged), 401, "{forged}");
    let junk = server.get("/api/me", &["Cookie: uttt_session=../../etc"]);
    assert_eq!(status(&junk), 401, "{junk}");

    // No Origin (not a page), or another site's page: refused, nobody made.
    let bare = server.request("POST", "/api/session", &["Content-Length: 0"]);
    assert_eq!(status(&bare), 403, "{bare}");
    assert_eq!(json(&bare)["error"], "bad-origin");
    let foreign = server.request(
        "POST",
        "/api/session",
        &["Origin: http://evil.example", "Content-Length: 0"],
    );
    assert_eq!(status(&foreign), 403, "{foreign}");
    assert!(header(&foreign, "set-cookie").is_none());

    let nobody = server.get("/api/players/NobodyHere1", &[]);
    assert_eq!(status(&nobody), 404, "{nobody}");
    assert_eq!(json(&nobody)["error"], "no-such-player");
    let odd = server.get("/api/players/%2e%2e%2fadmin", &[]);
    assert_eq!(status(&odd), 404, "{odd}");
}
