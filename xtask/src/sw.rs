//! Stamps the service worker of a dist folder with a release version and the
//! list of files to precache, so each release caches into its own cache and
//! is a byte-different sw.js (which is how browsers notice an update).

use crate::Result;
use std::path::Path;

/// The line sw.js carries in the repository; `serve` leaves it as is, so
/// development runs network-first with no precache.
const DEV_BUILD_LINE: &str = "const BUILD = {\"version\":\"dev\",\"assets\":[]};";

/// Rewrites `out/sw.js` (when the site has one) with a content hash of every
/// other file and their relative paths, plus `./` for the page itself.
pub fn stamp(out: &Path) -> Result {
    let sw = out.join("sw.js");
    if !sw.is_file() {
        return Ok(());
    }
    let text =
        std::fs::read_to_string(&sw).map_err(|e| format!("cannot read {}: {e}", sw.display()))?;
    if !text.contains(DEV_BUILD_LINE) {
        return Err(format!(
            "sw.js has no line `{DEV_BUILD_LINE}` for dist to stamp with the release's version and files"
        ));
    }
    let mut files = Vec::new();
    list_files(out, out, &mut files)?;
    files.retain(|path| path != "sw.js");
    files.sort();

    let mut hash = Fnv::new();
    for path in &files {
        let bytes =
            std::fs::read(out.join(path)).map_err(|e| format!("cannot read {path}: {e}"))?;
        hash.write(path.as_bytes());
        hash.write(&[0]);
        hash.write(&bytes);
        hash.write(&[0]);
    }
    hash.write(text.as_bytes());

    let mut assets = vec!["\"./\"".to_string()];
    assets.extend(files.iter().map(|path| json_string(path)));
    let line = format!(
        "const BUILD = {{\"version\":\"{:016x}\",\"assets\":[{}]}};",
        hash.finish(),
        assets.join(",")
    );
    std::fs::write(&sw, text.replacen(DEV_BUILD_LINE, &line, 1))
        .map_err(|e| format!("cannot write {}: {e}", sw.display()))
}

/// Every file below `dir` as a `/`-separated path relative to `base`.
fn list_files(base: &Path, dir: &Path, out: &mut Vec<String>) -> Result {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
            .path();
        if path.is_dir() {
            list_files(base, &path, out)?;
        } else if let Ok(relative) = path.strip_prefix(base) {
            let parts: Vec<_> = relative
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
            out.push(parts.join("/"));
        }
    }
    Ok(())
}

fn json_string(text: &str) -> String {
    let mut quoted = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            c if (c as u32) < 0x20 => quoted.push_str(&format!("\\u{:04x}", c as u32)),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// FNV-1a, 64 bits: a release label, not a security measure.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_version_and_assets_and_changes_with_content() {
        let dir = std::env::temp_dir().join(format!("uttt-xtask-sw-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("www")).unwrap();
        std::fs::write(dir.join("index.html"), "a").unwrap();
        std::fs::write(dir.join("www").join("main.js"), "b").unwrap();
        let sw = format!("// worker\n{DEV_BUILD_LINE}\nself.x = 1;\n");
        std::fs::write(dir.join("sw.js"), &sw).unwrap();
        stamp(&dir).unwrap();
        let first = std::fs::read_to_string(dir.join("sw.js")).unwrap();
        assert!(
            first.contains(r#""assets":["./","index.html","www/main.js"]"#),
            "{first}"
        );
        assert!(!first.contains("\"dev\""));

        std::fs::write(dir.join("sw.js"), &sw).unwrap();
        std::fs::write(dir.join("index.html"), "changed").unwrap();
        stamp(&dir).unwrap();
        let second = std::fs::read_to_string(dir.join("sw.js")).unwrap();
        assert_ne!(first, second);
        // A second stamp of an already stamped file is refused, not doubled.
        assert!(stamp(&dir).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
