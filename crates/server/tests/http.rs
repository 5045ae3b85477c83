//! The HTTP side of a real `uttt-server` process, probed over real sockets.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use crate::support::{header, repo_file, small_site, Server};

#[test]
fn serves_the_site_with_exact_types_and_security_headers() {
    let site = small_site("types");
    let server = Server::start(&["--site", site.to_str().unwrap(), "--prefix", "/uttt/"]);
    let index = server.get("/uttt/", &[]);
    assert!(index.starts_with("HTTP/1.1 200"), "{index}");
    assert_eq!(
        header(&index, "content-type"),
        Some("text/html; charset=utf-8")
    );
    assert!(index.ends_with("<title>t</title>"));
    assert_eq!(header(&index, "x-content-type-options"), Some("nosniff"));
    assert_eq!(header(&index, "cache-control"), Some("no-cache"));
    assert!(header(&index, "last-modified").is_some());

    // The header's policy is the page's own plus frame-ancestors.
    let page = std::fs::read_to_string(repo_file("index.html")).unwrap();
    let meta = page
        .split("http-equiv=\"Content-Security-Policy\" content=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("index.html has a CSP meta tag");
    assert_eq!(
        header(&index, "content-security-policy"),
        Some(format!("{meta}; frame-ancestors 'none'").as_str())
    );

    let wasm = server.get("/uttt/www/m.wasm", &[]);
    assert_eq!(header(&wasm, "content-type"), Some("application/wasm"));
    let js = server.get("/uttt/www/main.js", &[]);
    assert_eq!(
        header(&js, "content-type"),
        Some("text/javascript; charset=utf-8")
    );
    let gzipped = server.get("/uttt/www/main.js", &["Accept-Encoding: gzip"]);
    assert_eq!(header(&gzipped, "content-encoding"), Some("gzip"));

    let moved = server.get("/uttt", &[]);
    assert!(moved.starts_with("HTTP/1.1 301"), "{moved}");
    assert_eq!(header(&moved, "location"), Some("/uttt/"));
    assert!(server
        .get("/uttt/missing.js", &[])
        .starts_with("HTTP/1.1 404"));
    assert!(server.get("/index.html", &[]).starts_with("HTTP/1.1 404"));
    assert!(server
        .get("/uttt/../index.html", &[])
        .starts_with("HTTP/1.1 404"));
    assert!(server
        .get("/uttt/%2e%2e/etc/passwd", &[])
        .starts_with("HTTP/1.1 404"));

    let head = server.request("HEAD", "/uttt/", &[]);
    assert!(
        head.starts_with("HTTP/1.1 200") && head.ends_with("\r\n\r\n"),
        "{head}"
    );
}

#[test]
fn other_methods_get_405_with_allow() {
    let site = small_site("methods");
    let server = Server::start(&["--site", site.to_str().unwrap()]);
    for method in ["POST", "PUT", "DELETE", "OPTIONS"] {
        let reply = server.request(method, "/", &["Content-Length: 0"]);
        assert!(reply.starts_with("HTTP/1.1 405"), "{method}: {reply}");
        assert_eq!(header(&reply, "allow"), Some("GET, HEAD"), "{method}");
    }
}

#[test]
fn oversized_heads_get_431() {
    let site = small_site("big");
    let server = Server::start(&["--site", site.to_str().unwrap()]);
    let big = format!("X-Big: {}", "a".repeat(20_000));
    let reply = server.get("/", &[&big]);
    assert!(reply.starts_with("HTTP/1.1 431"), "{reply}");
    // Many headers that are each small, together too large.
    let many: Vec<String> = (0..800)
        .map(|i| format!("X-{i}: {}", "b".repeat(20)))
        .collect();
    let refs: Vec<&str> = many.iter().map(String::as_str).collect();
    assert!(server.get("/", &refs).starts_with("HTTP/1.1 431"));
}

#[test]
fn never_serves_a_symlink_out_of_the_site() {
    let site = small_site("links");
    let outside = crate::support::scratch("links-outside");
    std::fs::write(outside.join("secret.txt"), "secret").unwrap();
    std::os::unix::fs::symlink(outside.join("secret.txt"), site.join("www/leak.txt")).unwrap();
    std::os::unix::fs::symlink(&outside, site.join("www/out")).unwrap();
    std::os::unix::fs::symlink(site.join("index.html"), site.join("www/inside.html")).unwrap();
    let server = Server::start(&["--site", site.to_str().unwrap()]);
    for path in ["/www/leak.txt", "/www/out/secret.txt"] {
        let reply = server.get(path, &[]);
        assert!(reply.starts_with("HTTP/1.1 404"), "{path}: {reply}");
        assert!(!reply.contains("secret\n") && !reply.ends_with("secret"));
    }
    // A link that stays inside is fine.
    assert!(server
        .get("/www/inside.html", &[])
        .starts_with("HTTP/1.1 200"));
}

#[test]
fn serves_only_the_listed_entries() {
    let site = small_site("entries");
    std::fs::write(site.join("Cargo.toml"), "[package]").unwrap();
    let server = Server::start(&[
        "--site",
        site.to_str().unwrap(),
        "--entries",
        "index.html,www",
    ]);
    assert!(server.get("/", &[]).starts_with("HTTP/1.1 200"));
    assert!(server.get("/www/main.js", &[]).starts_with("HTTP/1.1 200"));
    assert!(server.get("/Cargo.toml", &[]).starts_with("HTTP/1.1 404"));
}

#[test]
fn the_log_escapes_what_clients_send() {
    let site = small_site("log");
    let server = Server::start(&["--site", site.to_str().unwrap(), "--log"]);
    let _ = server.raw(
        format!(
            "GET /\x1b[2J\x1b[31mred HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            server.addr
        )
        .as_bytes(),
    );
    let _ = server.get("/%1b%5b2J", &[]);
    let deadline = Instant::now() + Duration::from_secs(5);
    while server.lines().len() < 3 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let lines = server.lines();
    assert!(lines.len() >= 2, "{lines:?}");
    for line in &lines {
        assert!(!line.contains('\u{1b}'), "raw escape in the log: {line:?}");
    }
}

#[test]
fn limits_connections_per_address_and_drops_silent_clients() {
    let site = small_site("limits");
    let server = Server::start(&[
        "--site",
        site.to_str().unwrap(),
        "--max-connections-per-address",
        "2",
        "--header-timeout-ms",
        "400",
    ]);
    let idle: Vec<TcpStream> = (0..2)
        .map(|_| TcpStream::connect(server.addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(100));
    let third = server.get("/", &[]);
    assert!(third.starts_with("HTTP/1.1 503"), "{third}");

    // The silent ones are closed once their head is overdue...
    for mut stream in idle {
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let started = Instant::now();
        let mut buffer = Vec::new();
        let _ = stream.read_to_end(&mut buffer);
        assert!(
            started.elapsed() < Duration::from_secs(4),
            "a silent client was kept"
        );
    }
    // ...which frees their slots.
    std::thread::sleep(Duration::from_millis(100));
    assert!(server.get("/", &[]).starts_with("HTTP/1.1 200"));
}

/// CPU seconds a process has used, from /proc.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap()
        .split_whitespace()
        .collect();
    // utime and stime are fields 14 and 15, i.e. 12 and 13 after the name.
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    ticks / 100.0
}

#[test]
fn out_of_file_handles_it_waits_instead_of_spinning() {
    let site = small_site("fds");
    let server = Server::start_with(Some("ulimit -n 40"), &["--site", site.to_str().unwrap()]);
    // More connections than the server has handles for: the rest stay
    // queued in the kernel while it cannot accept them.
    let held: Vec<TcpStream> = (0..60)
        .filter_map(|_| TcpStream::connect(server.addr).ok())
        .collect();
    assert!(held.len() >= 40);
    std::thread::sleep(Duration::from_millis(300));
    let before = cpu_seconds(server.child.id());
    std::thread::sleep(Duration::from_secs(1));
    let used = cpu_seconds(server.child.id()) - before;
    assert!(
        used < 0.3,
        "the server used {used} s of CPU in 1 s while out of handles"
    );
    let said = server.lines();
    assert!(
        said.iter().filter(|l| l.contains("cannot accept")).count() == 1,
        "the refusals are reported once: {said:?}"
    );
    drop(held);
    // Handles free again: a normal request is answered promptly.
    let started = Instant::now();
    let mut stream = TcpStream::connect(server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    stream
        .write_all(
            format!(
                "GET / HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
                server.addr
            )
            .as_bytes(),
        )
        .unwrap();
    let mut reply = Vec::new();
    let _ = stream.read_to_end(&mut reply);
    assert!(String::from_utf8_lossy(&reply).starts_with("HTTP/1.1 200"));
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "took {:?}",
        started.elapsed()
    );
}

#[test]
fn draws_invitation_links_as_qr_codes_and_nothing_else() {
    let site = small_site("qr");
    let server = Server::start(&["--site", site.to_str().unwrap(), "--prefix", "/uttt/"]);
    let link = format!("http%3A%2F%2F{}%2Futtt%2F%3Froom%3Dabc123", server.addr);
    let reply = server.get(&format!("/uttt/qr.svg?text={link}"), &[]);
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    assert_eq!(header(&reply, "content-type"), Some("image/svg+xml"));
    assert!(reply.contains("<svg"));
    assert!(server
        .get("/uttt/qr.svg?text=hello", &[])
        .starts_with("HTTP/1.1 400"));
    assert!(server.get("/uttt/qr.svg", &[]).starts_with("HTTP/1.1 400"));
}

#[test]
fn draws_no_qr_code_for_a_link_to_another_site() {
    let site = small_site("qr-other");
    let server = Server::start(&[
        "--site",
        site.to_str().unwrap(),
        "--allow-origin",
        "https://uttt.example",
    ]);
    let qr = |link: &str| server.get(&format!("/qr.svg?text={link}"), &[]);
    for foreign in [
        "https%3A%2F%2Fevil.example%2F%3Froom%3Dabc123".to_string(),
        "http%3A%2F%2Flocalhost%3A1%2F%3Froom%3Dabc123".to_string(),
        format!(
            "http%3A%2F%2F{}%40evil.example%2F%3Froom%3Dabc123",
            server.addr
        ),
    ] {
        let reply = qr(&foreign);
        assert!(reply.starts_with("HTTP/1.1 403"), "{foreign}: {reply}");
        assert!(reply.contains("this site only"), "{reply}");
        assert!(!reply.contains("<svg"));
    }
    let own = qr(&format!("http%3A%2F%2F{}%2F%3Froom%3Dabc123", server.addr));
    assert!(own.starts_with("HTTP/1.1 200"), "{own}");
    let allowed = qr("https%3A%2F%2Futtt.example%2F%3Froom%3Dabc123");
    assert!(allowed.starts_with("HTTP/1.1 200"), "{allowed}");
}

#[test]
fn the_game_connection_tells_other_methods_to_use_get() {
    let site = small_site("ws-methods");
    let server = Server::start(&["--site", site.to_str().unwrap(), "--prefix", "/uttt/"]);
    for (method, path) in [
        ("HEAD", "/ws"),
        ("HEAD", "/uttt/ws"),
        ("POST", "/ws"),
        ("PUT", "/uttt/ws"),
        ("OPTIONS", "/ws"),
    ] {
        let reply = server.request(method, path, &["Content-Length: 0"]);
        assert!(
            reply.starts_with("HTTP/1.1 405"),
            "{method} {path}: {reply}"
        );
        assert_eq!(header(&reply, "allow"), Some("GET"), "{method} {path}");
    }
}

/// A request for `path` naming `host` (`None`: an HTTP/1.0 request naming
/// none), with `Origin: origin` when given.
fn for_host(server: &Server, path: &str, host: Option<&str>, origin: Option<&str>) -> String {
    let mut request = match host {
        Some(host) => format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n"),
        None => format!("GET {path} HTTP/1.0\r\n"),
    };
    if let Some(origin) = origin {
        request.push_str(&format!("Origin: {origin}\r\n"));
    }
    if path.ends_with("ws") {
        request.push_str(
            "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
        );
    } else {
        request.push_str("Connection: close\r\n\r\n");
    }
    let mut stream = TcpStream::connect(server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    // The head is enough (an upgraded connection stays open).
    let mut reply = Vec::new();
    let mut buffer = [0; 4096];
    while !reply.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => reply.extend_from_slice(&buffer[..n]),
        }
    }
    String::from_utf8_lossy(&reply).into_owned()
}

#[test]
fn answers_only_to_its_own_host_names() {
    let site = small_site("hosts");
    let server = Server::start(&["--site", site.to_str().unwrap()]);
    let port = server.addr.port();
    let ok = |path: &str, host: Option<&str>, origin: Option<&str>| {
        let reply = for_host(&server, path, host, origin);
        let status = reply.split(' ').nth(1);
        assert!(
            matches!(status, Some("200" | "101")),
            "{path} for {host:?}: {reply}"
        );
    };
    let own = server.addr.to_string();
    let localhost = format!("localhost:{port}");
    ok("/", Some(&own), None);
    ok("/", Some(&localhost), None);
    ok("/", None, None);
    ok(
        "/ws",
        Some(&localhost),
        Some(&format!("http://{localhost}")),
    );

    // A page of another site whose name leads here (DNS rebinding): the
    // same site by its Origin, but not by name.
    let rebound = format!("rebound.example:{port}");
    for (path, origin) in [
        ("/", None),
        ("/ws", Some(format!("http://{rebound}"))),
        (
            "/qr.svg?text=http%3A%2F%2Frebound.example%2F%3Froom%3Da",
            None,
        ),
    ] {
        let reply = for_host(&server, path, Some(&rebound), origin.as_deref());
        assert!(reply.starts_with("HTTP/1.1 421"), "{path}: {reply}");
    }
    for host in [
        format!("localhost:{}", port.wrapping_add(1)),
        "localhost".into(),
        "".into(),
    ] {
        let reply = for_host(&server, "/", Some(&host), None);
        assert!(reply.starts_with("HTTP/1.1 421"), "{host}: {reply}");
    }

    // The operator names its public host.
    let named = Server::start(&[
        "--site",
        site.to_str().unwrap(),
        "--host",
        "play.example.org",
    ]);
    for host in ["play.example.org", "Play.Example.org:443"] {
        let reply = for_host(&named, "/", Some(host), None);
        assert!(reply.starts_with("HTTP/1.1 200"), "{host}: {reply}");
    }
    let origin = Some("https://play.example.org");
    let reply = for_host(&named, "/ws", Some("play.example.org"), origin);
    assert!(reply.starts_with("HTTP/1.1 101"), "{reply}");
}
