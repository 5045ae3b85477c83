//! `cargo xtask build`: the web crate compiled to wasm32 in release, then
//! wasm-bindgen's ES-module glue written to `www/pkg/`, where the page
//! imports it from.

use crate::cmd::{self, cargo};
use crate::{setup, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The package name of the web crate.
pub const WEB_CRATE: &str = "uttt-web";
/// The module name wasm-bindgen gives the output: `www/pkg/uttt_web.js` and
/// `www/pkg/uttt_web_bg.wasm`.
pub const OUT_NAME: &str = "uttt_web";

/// Where the generated glue and wasm go, relative to the repository root.
pub fn pkg_dir(root: &Path) -> PathBuf {
    root.join("www").join("pkg")
}

/// Cargo's target directory (honours `CARGO_TARGET_DIR`).
pub fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() {
                dir
            } else {
                root.join(dir)
            }
        }
        _ => root.join("target"),
    }
}

/// Builds the wasm module and its glue; returns the path of the final
/// `.wasm` file in `www/pkg/`.
pub fn build(root: &Path) -> Result<PathBuf> {
    setup::ensure_wasm_target()?;
    let bindgen_bin = setup::ensure_bindgen_cli(root)?;

    cmd::run(
        cargo()
            .current_dir(root)
            .args(["build", "--package", WEB_CRATE, "--release", "--target"])
            .arg(setup::WASM_TARGET),
        "building crates/web for wasm32",
    )?;
    let raw = target_dir(root)
        .join(setup::WASM_TARGET)
        .join("release")
        .join(format!("{OUT_NAME}.wasm"));
    if !raw.is_file() {
        return Err(format!(
            "cargo reported success but {} is missing",
            raw.display()
        ));
    }

    // Start from an empty folder so no stale file of an older build ships.
    let pkg = pkg_dir(root);
    if pkg.exists() {
        std::fs::remove_dir_all(&pkg)
            .map_err(|e| format!("cannot clear {}: {e}", pkg.display()))?;
    }
    cmd::run(
        Command::new(bindgen_bin.join("wasm-bindgen"))
            .args([
                "--target",
                "web",
                "--no-typescript",
                "--out-name",
                OUT_NAME,
                "--out-dir",
            ])
            .arg(&pkg)
            .arg(&raw),
        "wasm-bindgen",
    )?;
    // No wasm-opt pass: Debian's binaryen (108) renumbers the two tables so
    // that the exported externref table points at the function table, and
    // the page dies at start-up; it buys no speed here either.
    let wasm = pkg.join(format!("{OUT_NAME}_bg.wasm"));

    let size = std::fs::metadata(&wasm)
        .map_err(|e| format!("cannot read {}: {e}", wasm.display()))?
        .len();
    println!(
        "xtask: built {} ({} KiB)",
        wasm.strip_prefix(root).unwrap_or(&wasm).display(),
        size.div_ceil(1024)
    );
    Ok(wasm)
}
