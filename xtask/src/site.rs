//! What the static site is made of, and `cargo xtask dist`, which copies it
//! into a self-contained folder for any static host.

use crate::Result;
use std::path::Path;

/// Top-level files and folders of the site, relative to the repository
/// root. Extend this list when the site gains a file; entries that do not
/// exist yet are skipped, except those marked required.
pub const SITE_ENTRIES: &[(&str, Need)] = &[
    ("index.html", Need::Required),
    ("style.css", Need::Optional),
    ("www", Need::Required),
    ("sw.js", Need::Optional),
    ("manifest.webmanifest", Need::Optional),
    ("favicon.ico", Need::Optional),
    ("favicon.svg", Need::Optional),
    ("icons", Need::Optional),
    ("assets", Need::Optional),
    ("404.html", Need::Optional),
    ("robots.txt", Need::Optional),
];

/// Whether a site entry must exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// The build fails without it.
    Required,
    /// Copied when present.
    Optional,
}

/// A game server elsewhere: its WebSocket URL and the origin the page's
/// Content-Security-Policy must let it connect to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Server {
    /// e.g. `wss://play.example.org/ws`.
    pub url: String,
    /// e.g. `wss://play.example.org`.
    pub origin: String,
}

/// Reads `--server URL`: ws, wss, http or https (the last two are written
/// as ws and wss), a host of letters, digits, dots, dashes and a port, and
/// a path (`/ws` when none is given).
pub fn server_url(text: &str) -> Result<Server> {
    let bad = || format!("--server must be a URL such as wss://play.example.org/ws, not `{text}`");
    let (scheme, rest) = text.split_once("://").ok_or_else(bad)?;
    let scheme = match scheme {
        "ws" | "http" => "ws",
        "wss" | "https" => "wss",
        _ => return Err(bad()),
    };
    let (host, path) = rest.split_once('/').map_or((rest, "ws"), |(h, p)| (h, p));
    let host_ok = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".-:".contains(&b));
    let path_ok = path
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"/-_.".contains(&b));
    if !host_ok || !path_ok {
        return Err(bad());
    }
    let path = if path.is_empty() { "ws" } else { path };
    Ok(Server {
        url: format!("{scheme}://{host}/{path}"),
        origin: format!("{scheme}://{host}"),
    })
}

/// Points the dist page at `server`: its `uttt-server` meta tag, and the
/// server's origin added to the CSP's connect-src.
fn point_at_server(out: &Path, server: &Server) -> Result {
    let page = out.join("index.html");
    let text = std::fs::read_to_string(&page)
        .map_err(|e| format!("cannot read {}: {e}", page.display()))?;
    let meta = "<meta name=\"uttt-server\" content=\"\">";
    let connect = "connect-src 'self'";
    if !text.contains(meta) || !text.contains(connect) {
        return Err(format!(
            "index.html has no `{meta}` or no `{connect}` for --server to fill in"
        ));
    }
    let text = text
        .replacen(
            meta,
            &format!("<meta name=\"uttt-server\" content=\"{}\">", server.url),
            1,
        )
        .replacen(connect, &format!("{connect} {}", server.origin), 1);
    std::fs::write(&page, text).map_err(|e| format!("cannot write {}: {e}", page.display()))
}

/// Copies the site into `out` (after a build) and checks it uses only
/// relative URLs, so it works under any sub-path; with `server`, the page
/// plays online through that server.
pub fn dist(root: &Path, out: &Path, server: Option<&Server>) -> Result {
    make_dist_for(root, out, server)?;
    println!("xtask: static site written to {}", out.display());
    println!(
        "xtask: host that folder anywhere (it uses relative URLs only, so a sub-path works too)"
    );
    Ok(())
}

/// The work of [`dist`] without the messages, for the test command.
pub fn make_dist(root: &Path, out: &Path) -> Result {
    make_dist_for(root, out, None)
}

fn make_dist_for(root: &Path, out: &Path, server: Option<&Server>) -> Result {
    prepare_out(out)?;
    for (entry, need) in SITE_ENTRIES {
        let from = root.join(entry);
        if !from.exists() {
            if *need == Need::Required {
                return Err(format!("the site needs {entry}, which is missing"));
            }
            continue;
        }
        copy_tree(&from, &out.join(entry))?;
    }
    if let Some(server) = server {
        point_at_server(out, server)?;
    }
    crate::sw::stamp(out)?;
    let absolute = find_absolute_urls(out)?;
    if absolute.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the site must use relative URLs only (it is hosted under a sub-path), but:\n  {}",
            absolute.join("\n  ")
        ))
    }
}

/// Empties `out`, refusing to delete a non-empty folder that does not look
/// like an earlier dist, so a mistyped --out cannot wipe anything else.
fn prepare_out(out: &Path) -> Result {
    if out.exists() {
        let empty = std::fs::read_dir(out)
            .map_err(|e| format!("cannot read {}: {e}", out.display()))?
            .next()
            .is_none();
        let earlier_dist = out.join("index.html").is_file() && out.join("www").is_dir();
        if !empty && !earlier_dist {
            return Err(format!(
                "{} exists and is not an earlier dist folder; choose another --out",
                out.display()
            ));
        }
        std::fs::remove_dir_all(out).map_err(|e| format!("cannot clear {}: {e}", out.display()))?;
    }
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))
}

/// Copies a file, or a folder recursively, leaving out what is not part of
/// a site (dotfiles, shell scripts, notes).
pub fn copy_tree(from: &Path, to: &Path) -> Result {
    if from.is_dir() {
        std::fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
        let entries =
            std::fs::read_dir(from).map_err(|e| format!("cannot read {}: {e}", from.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("cannot read {}: {e}", from.display()))?;
            let name = entry.file_name();
            // Dotfiles, the scripts or notes that make assets and the type
            // declarations that only the type check reads are not part of
            // the site.
            let text = name.to_string_lossy();
            let skipped = [".sh", ".md", ".d.ts"];
            if text.starts_with('.') || skipped.iter().any(|end| text.ends_with(end)) {
                continue;
            }
            copy_tree(&entry.path(), &to.join(name))?;
        }
        Ok(())
    } else {
        std::fs::copy(from, to)
            .map(|_| ())
            .map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), to.display()))
    }
}

/// Spellings of a root-relative or protocol-relative URL in HTML, CSS, JS
/// and manifests: each would break under a sub-path.
const ABSOLUTE_URL_PATTERNS: &[&str] = &[
    "src=\"/",
    "src='/",
    "href=\"/",
    "href='/",
    "action=\"/",
    "from \"/",
    "from '/",
    "import(\"/",
    "import('/",
    "url(/",
    "url(\"/",
    "url('/",
    "fetch(\"/",
    "fetch('/",
    "Worker(\"/",
    "Worker('/",
    "register(\"/",
    "register('/",
    "URL(\"/",
    "URL('/",
    "\"start_url\": \"/",
    "\"scope\": \"/",
    "\"src\": \"/",
];

/// Every `file:line: text` in `dir` that contains an absolute URL pattern.
fn find_absolute_urls(dir: &Path) -> Result<Vec<String>> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            let entries = std::fs::read_dir(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            for entry in entries {
                stack.push(
                    entry
                        .map_err(|e| format!("cannot read {}: {e}", path.display()))?
                        .path(),
                );
            }
            continue;
        }
        let checked = ["html", "css", "js", "mjs", "webmanifest", "json"];
        let is_text = path
            .extension()
            .and_then(|ext| ext.to_str())
            .is_some_and(|ext| checked.contains(&ext));
        if !is_text {
            continue;
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        for (number, line) in text.lines().enumerate() {
            if ABSOLUTE_URL_PATTERNS
                .iter()
                .any(|pattern| line.contains(pattern))
            {
                let shown = path.strip_prefix(dir).unwrap_or(&path).display();
                found.push(format!("{shown}:{}: {}", number + 1, line.trim()));
            }
        }
    }
    found.sort();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("uttt-xtask-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn flags_root_relative_urls_and_accepts_relative_ones() {
        let dir = scratch("urls");
        std::fs::write(
            dir.join("index.html"),
            "<link href=\"style.css\">\n<script type=\"module\" src=\"/www/main.js\"></script>\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("main.js"),
            "import init from './pkg/uttt_page.js';\nlet p = a.split(\"/\");\n",
        )
        .unwrap();
        let found = find_absolute_urls(&dir).unwrap();
        assert_eq!(
            found,
            vec!["index.html:2: <script type=\"module\" src=\"/www/main.js\"></script>"]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn reads_server_urls() {
        assert_eq!(
            server_url("https://play.example.org").unwrap(),
            Server {
                url: "wss://play.example.org/ws".into(),
                origin: "wss://play.example.org".into()
            }
        );
        assert_eq!(
            server_url("ws://127.0.0.1:8000/uttt/ws").unwrap().url,
            "ws://127.0.0.1:8000/uttt/ws"
        );
        for bad in [
            "play.example.org",
            "ftp://x/ws",
            "wss://a b/ws",
            "wss://x/\"><script>",
            "wss:///ws",
        ] {
            assert!(server_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn points_a_dist_page_at_a_server() {
        let dir = scratch("server");
        std::fs::write(
            dir.join("index.html"),
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'; connect-src 'self'; object-src 'none'\">\n<meta name=\"uttt-server\" content=\"\">\n",
        )
        .unwrap();
        point_at_server(&dir, &server_url("wss://play.example.org/ws").unwrap()).unwrap();
        let text = std::fs::read_to_string(dir.join("index.html")).unwrap();
        assert!(
            text.contains("connect-src 'self' wss://play.example.org;"),
            "{text}"
        );
        assert!(text.contains("<meta name=\"uttt-server\" content=\"wss://play.example.org/ws\">"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn refuses_to_clear_a_folder_that_is_not_a_dist() {
        let dir = scratch("out");
        std::fs::write(dir.join("precious.txt"), "keep me").unwrap();
        assert!(prepare_out(&dir).is_err());
        assert!(dir.join("precious.txt").is_file());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
