//! The static site: which file a request path names, found without ever
//! leaving the site folder, and answered by tower-http's `ServeFile`
//! (content types, `Last-Modified`, conditional and range requests).

use std::path::{Path, PathBuf};

/// Where a request path leads.
#[derive(Debug, PartialEq, Eq)]
pub enum Route {
    /// A file below the root, as path segments.
    File(Vec<String>),
    /// The prefix without its trailing slash: redirect there, so relative
    /// URLs resolve against the folder.
    Redirect(String),
    /// Nothing the site serves.
    NotFound,
}

/// Maps a request path (already without its query) to a route, without
/// touching the file system. `entries`, when given, are the only top-level
/// names served.
#[must_use]
pub fn route(prefix: &str, path: &str, entries: Option<&[String]>) -> Route {
    if prefix != "/" && path == prefix.trim_end_matches('/') {
        return Route::Redirect(prefix.to_string());
    }
    let Some(rest) = path.strip_prefix(prefix) else {
        return Route::NotFound;
    };
    let Some(decoded) = percent_decode(rest) else {
        return Route::NotFound;
    };
    if decoded.is_empty() {
        return Route::File(vec!["index.html".into()]);
    }
    let trailing_slash = decoded.ends_with('/');
    let mut segments = Vec::new();
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
    if let Some(entries) = entries {
        if !entries.iter().any(|e| *e == segments[0]) {
            return Route::NotFound;
        }
    }
    if trailing_slash {
        segments.push("index.html".into());
    }
    Route::File(segments)
}

/// Decodes `%XX` escapes; `None` for malformed escapes or non-UTF-8.
pub fn percent_decode(text: &str) -> Option<String> {
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

/// The file `segments` name below `root`, if it exists and, with every
/// symlink resolved, is still inside `root` (a folder stands for its
/// `index.html`).
#[must_use]
pub fn file_inside(root: &Path, segments: &[String]) -> Option<PathBuf> {
    let root = root.canonicalize().ok()?;
    let mut path = root.clone();
    path.extend(segments);
    if path.is_dir() {
        path.push("index.html");
    }
    let path = path.canonicalize().ok()?;
    (path.starts_with(&root) && path.is_file()).then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(parts: &[&str]) -> Route {
        Route::File(parts.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn routes_the_root_and_files_under_a_prefix() {
        assert_eq!(route("/", "/", None), file(&["index.html"]));
        assert_eq!(
            route("/", "/www/pkg/uttt_page.js", None),
            file(&["www", "pkg", "uttt_page.js"])
        );
        assert_eq!(route("/uttt/", "/uttt/", None), file(&["index.html"]));
        assert_eq!(
            route("/uttt/", "/uttt", None),
            Route::Redirect("/uttt/".into())
        );
        assert_eq!(route("/uttt/", "/style.css", None), Route::NotFound);
        assert_eq!(route("/", "/www/", None), file(&["www", "index.html"]));
        assert_eq!(route("/", "/a%20b.txt", None), file(&["a b.txt"]));
    }

    #[test]
    fn refuses_every_way_out_of_the_root() {
        for path in [
            "/../Cargo.toml",
            "/www/../../etc/passwd",
            "/%2e%2e/secret",
            "/www/%2E%2E/x",
            "/.git/config",
            "/a//b",
            "/a\\..\\b",
            "/%2e%2e%2fx",
            "/%zz",
            "/c:/x",
        ] {
            assert_eq!(route("/", path, None), Route::NotFound, "{path}");
        }
    }

    #[test]
    fn serves_only_the_listed_entries() {
        let entries = vec!["index.html".to_string(), "www".to_string()];
        assert_eq!(route("/", "/Cargo.toml", Some(&entries)), Route::NotFound);
        assert_eq!(route("/", "/target/x", Some(&entries)), Route::NotFound);
        assert_eq!(route("/", "/", Some(&entries)), file(&["index.html"]));
        assert_eq!(
            route("/", "/www/main.js", Some(&entries)),
            file(&["www", "main.js"])
        );
    }
}
