//! A small static file server over `std::net`: enough for the game and its
//! tests, with correct content types and no way out of its folder.

use crate::{mime, site, Result};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// What a server serves and how.
#[derive(Clone, Debug)]
pub struct Site {
    /// The folder files are read from.
    pub root: PathBuf,
    /// The URL path the site lives under: `/`, or `/uttt/` to prove the site
    /// works under a sub-path as on a project's GitHub Pages.
    pub prefix: String,
    /// Serve only the site's own top-level entries (used when serving the
    /// repository itself, so Cargo.toml, target/ and .git stay private).
    pub only_site_entries: bool,
    /// Print one line per request.
    pub log: bool,
}

/// `cargo xtask serve`: serves the working tree's site files (so edits to
/// JS and CSS show on reload) until Ctrl-C, which ends the process.
pub fn serve_repo(root: &Path, port: u16) -> Result {
    let listener = bind(port)?;
    let site = Site {
        root: root.to_path_buf(),
        prefix: "/".into(),
        only_site_entries: true,
        log: true,
    };
    let address = listener
        .local_addr()
        .map_err(|e| format!("cannot read the server address: {e}"))?;
    println!("xtask: serving the game at http://{address}/  (Ctrl-C stops)");
    accept_loop(listener, Arc::new(site));
    Ok(())
}

/// Starts a server on a background thread (port 0 picks a free one) and
/// returns its address; it lives as long as the process.
pub fn start(site: Site, port: u16) -> Result<SocketAddr> {
    let listener = bind(port)?;
    let address = listener
        .local_addr()
        .map_err(|e| format!("cannot read the server address: {e}"))?;
    let site = Arc::new(site);
    std::thread::spawn(move || accept_loop(listener, site));
    Ok(address)
}

fn bind(port: u16) -> Result<TcpListener> {
    TcpListener::bind(("127.0.0.1", port)).map_err(|e| {
        format!("cannot listen on 127.0.0.1:{port}: {e} (is another server using it? try --port)")
    })
}

fn accept_loop(listener: TcpListener, site: Arc<Site>) {
    for stream in listener.incoming().flatten() {
        let site = Arc::clone(&site);
        std::thread::spawn(move || {
            // A client that hangs up mid-response is its own business.
            let _ = handle(stream, &site);
        });
    }
}

/// Where a request leads.
#[derive(Debug, PartialEq, Eq)]
enum Route {
    /// A file below the root, as path segments.
    File(Vec<String>),
    /// The prefix without its trailing slash: redirect so relative URLs
    /// resolve against the folder.
    Redirect(String),
    NotFound,
    BadRequest,
}

fn handle(mut stream: TcpStream, site: &Site) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let head = read_head(&mut stream)?;
    let request_line = head.lines().next().unwrap_or_default();
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let head_only = method == "HEAD";
    let reply = if method != "GET" && !head_only {
        Reply::text(405, "method not allowed\n")
    } else {
        reply_for(site, target)
    };
    respond(&mut stream, site, request_line, &reply, head_only)
}

/// What the server answers: one value, so every status goes out through the
/// same `respond`.
struct Reply {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
    location: Option<String>,
}

impl Reply {
    /// A short plain-text answer, for everything but a file.
    fn text(status: u16, body: &str) -> Reply {
        Reply {
            status,
            content_type: "text/plain; charset=utf-8",
            body: body.as_bytes().to_vec(),
            location: None,
        }
    }
}

/// The reply to a GET (or HEAD) of `target`.
fn reply_for(site: &Site, target: &str) -> Reply {
    match route(&site.prefix, target, site.only_site_entries) {
        Route::File(segments) => {
            let mut path = site.root.clone();
            path.extend(&segments);
            if path.is_dir() {
                path.push("index.html");
            }
            match read_inside(&site.root, &path) {
                Some(body) => {
                    let name = path
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    Reply {
                        status: 200,
                        content_type: mime::content_type(&name),
                        body,
                        location: None,
                    }
                }
                None => Reply::text(404, "not found\n"),
            }
        }
        Route::Redirect(location) => Reply {
            location: Some(location),
            ..Reply::text(301, "moved\n")
        },
        Route::NotFound => Reply::text(404, "not found\n"),
        Route::BadRequest => Reply::text(400, "bad request\n"),
    }
}

/// Reads up to the blank line that ends the request head (the body of a
/// GET is ignored).
fn read_head(stream: &mut TcpStream) -> std::io::Result<String> {
    let mut head = Vec::new();
    let mut buffer = [0u8; 2048];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 16 * 1024 {
        let n = stream.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        head.extend_from_slice(&buffer[..n]);
    }
    Ok(String::from_utf8_lossy(&head).into_owned())
}

/// Reads a file only if, with symlinks resolved, it is still inside `root`.
fn read_inside(root: &Path, path: &Path) -> Option<Vec<u8>> {
    let root = root.canonicalize().ok()?;
    let path = path.canonicalize().ok()?;
    if !path.starts_with(&root) || !path.is_file() {
        return None;
    }
    std::fs::read(path).ok()
}

/// Maps a request target to a route without touching the file system.
fn route(prefix: &str, target: &str, only_site_entries: bool) -> Route {
    let path = target.split(['?', '#']).next().unwrap_or("");
    if !path.starts_with('/') {
        return Route::BadRequest;
    }
    if prefix != "/" && path == prefix.trim_end_matches('/') {
        return Route::Redirect(prefix.to_string());
    }
    let Some(rest) = path.strip_prefix(prefix) else {
        return Route::NotFound;
    };
    let Some(decoded) = percent_decode(rest) else {
        return Route::BadRequest;
    };
    if decoded.is_empty() {
        return Route::File(vec!["index.html".into()]);
    }
    let mut segments = Vec::new();
    let trailing_slash = decoded.ends_with('/');
    for segment in decoded.trim_end_matches('/').split('/') {
        // No parent, current or empty segments, no hidden files, and no
        // characters another OS would read as a separator or drive.
        let bad =
            segment.is_empty() || segment.starts_with('.') || segment.contains(['\\', '\0', ':']);
        if bad {
            return Route::NotFound;
        }
        segments.push(segment.to_string());
    }
    if only_site_entries && !site::is_site_entry(&segments[0]) {
        return Route::NotFound;
    }
    if trailing_slash {
        segments.push("index.html".into());
    }
    Route::File(segments)
}

/// Decodes `%XX` escapes; `None` for malformed escapes or non-UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[allow(clippy::too_many_arguments)]
fn respond(
    stream: &mut TcpStream,
    site: &Site,
    request_line: &str,
    reply: &Reply,
    head_only: bool,
) -> std::io::Result<()> {
    let status = reply.status;
    let reason = match status {
        200 => "OK",
        301 => "Moved Permanently",
        400 => "Bad Request",
        404 => "Not Found",
        _ => "Method Not Allowed",
    };
    if site.log {
        println!("{status} {request_line}");
    }
    let mut head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
         Cache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n",
        reply.content_type,
        reply.body.len()
    );
    if let Some(location) = &reply.location {
        head.push_str("Location: ");
        head.push_str(location);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    if !head_only {
        stream.write_all(&reply.body)?;
    }
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(parts: &[&str]) -> Route {
        Route::File(parts.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn routes_the_root_and_files_under_a_prefix() {
        assert_eq!(route("/", "/", false), file(&["index.html"]));
        assert_eq!(
            route("/", "/www/pkg/uttt_web.js?v=1", false),
            file(&["www", "pkg", "uttt_web.js"])
        );
        assert_eq!(route("/uttt/", "/uttt/", false), file(&["index.html"]));
        assert_eq!(
            route("/uttt/", "/uttt", false),
            Route::Redirect("/uttt/".into())
        );
        assert_eq!(route("/uttt/", "/style.css", false), Route::NotFound);
        assert_eq!(route("/", "/www/", false), file(&["www", "index.html"]));
        assert_eq!(route("/", "/a%20b.txt", false), file(&["a b.txt"]));
    }

    #[test]
    fn refuses_every_way_out_of_the_root() {
        for target in [
            "/../Cargo.toml",
            "/www/../../etc/passwd",
            "/%2e%2e/secret",
            "/www/%2E%2E/x",
            "/.git/config",
            "/a//b",
            "/a\\..\\b",
            "/%2e%2e%2fx",
        ] {
            assert!(
                matches!(
                    route("/", target, false),
                    Route::NotFound | Route::BadRequest
                ),
                "{target}"
            );
        }
        assert_eq!(route("/", "/%zz", false), Route::BadRequest);
        assert_eq!(route("/", "relative", false), Route::BadRequest);
    }

    #[test]
    fn serves_only_site_entries_from_the_repository() {
        assert_eq!(route("/", "/Cargo.toml", true), Route::NotFound);
        assert_eq!(route("/", "/target/x", true), Route::NotFound);
        assert_eq!(route("/", "/index.html", true), file(&["index.html"]));
        assert_eq!(route("/", "/www/main.js", true), file(&["www", "main.js"]));
    }

    #[test]
    fn answers_real_requests_with_content_types() {
        let dir = std::env::temp_dir().join(format!("uttt-xtask-server-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("www")).unwrap();
        std::fs::write(dir.join("index.html"), "<!doctype html>").unwrap();
        std::fs::write(dir.join("www").join("m.wasm"), [0u8, 97, 115, 109]).unwrap();
        let site = Site {
            root: dir.clone(),
            prefix: "/sub/".into(),
            only_site_entries: false,
            log: false,
        };
        let address = start(site, 0).unwrap();
        let get = |target: &str| {
            let mut stream = TcpStream::connect(address).unwrap();
            write!(stream, "GET {target} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
            let mut reply = Vec::new();
            stream.read_to_end(&mut reply).unwrap();
            String::from_utf8_lossy(&reply).into_owned()
        };
        let index = get("/sub/");
        assert!(index.starts_with("HTTP/1.1 200"), "{index}");
        assert!(index.contains("Content-Type: text/html; charset=utf-8"));
        assert!(index.ends_with("<!doctype html>"));
        assert!(get("/sub/www/m.wasm").contains("Content-Type: application/wasm"));
        assert!(get("/sub/missing.js").starts_with("HTTP/1.1 404"));
        assert!(get("/sub/../index.html").starts_with("HTTP/1.1 404"));
        assert!(get("/sub").contains("Location: /sub/"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
