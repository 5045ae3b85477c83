//! Reads the exact wasm-bindgen version pinned in Cargo.lock: the bindgen
//! CLI must match the library byte for byte in its schema, so the lockfile
//! is the only authority on which CLI to use.

use crate::Result;
use std::path::Path;

/// The version of the `wasm-bindgen` package recorded in `root/Cargo.lock`.
pub fn wasm_bindgen_version(root: &Path) -> Result<String> {
    let path = root.join("Cargo.lock");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    find_version(&text, "wasm-bindgen").ok_or_else(|| {
        format!(
            "{} pins no `wasm-bindgen` package; is crates/web a workspace member?",
            path.display()
        )
    })
}

/// Finds `version = "..."` in the `[[package]]` block whose name is `name`.
fn find_version(lock: &str, name: &str) -> Option<String> {
    let wanted = format!("name = \"{name}\"");
    let mut in_block = false;
    for line in lock.lines().map(str::trim) {
        if line == "[[package]]" {
            in_block = false;
        } else if line == wanted {
            in_block = true;
        } else if in_block {
            if let Some(value) = line.strip_prefix("version = ") {
                return Some(value.trim_matches('"').to_string());
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::find_version;

    #[test]
    fn finds_the_named_package_only() {
        let lock = r#"
[[package]]
name = "wasm-bindgen-macro"
version = "0.2.99"

[[package]]
name = "wasm-bindgen"
version = "0.2.130"
source = "registry+https://github.com/rust-lang/crates.io-index"
"#;
        assert_eq!(
            find_version(lock, "wasm-bindgen").as_deref(),
            Some("0.2.130")
        );
        assert_eq!(find_version(lock, "js-sys"), None);
    }
}
