//! `cargo xtask build`: the web crate compiled to wasm32 in release as two
//! modules, the page's (feature `page`: rules, records, the tree of lines,
//! the view) and the worker's (feature `worker`: the search, the review,
//! the survey), each with wasm-bindgen's ES-module glue written to
//! `www/pkg/`, where the page and the worker import them from, and
//! optimised by binaryen's `wasm-opt` (the npm package `binaryen`, pinned
//! in package-lock.json).
//!
//! `cargo xtask bench` builds a third module with the web crate's `bench`
//! feature (perft and the search benchmark exports) into a folder of its
//! own, optimised the same way, so the game's wasm never carries them.

use crate::cmd::{self, cargo};
use crate::{setup, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The package name of the web crate.
pub const WEB_CRATE: &str = "uttt-web";
/// The file cargo writes for the web crate, whatever its features.
const CARGO_OUT: &str = "uttt_web";

/// One wasm module made from the web crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Module {
    /// The name wasm-bindgen gives its files: `NAME.js`, `NAME_bg.wasm`.
    pub name: &'static str,
    /// The web crate's feature that makes it.
    pub feature: &'static str,
    /// The cargo profile it is built with (see the workspace's Cargo.toml).
    profile: &'static str,
    /// Code it must not link, as the start of a mangled path and what it
    /// is: the build fails if a function of it is in the module.
    absent: &'static [(&'static str, &'static str)],
    /// Functions under an absent path that it may link all the same.
    allowed: &'static [&'static str],
}

/// The page's module: no search.
pub const PAGE: Module = Module {
    name: "uttt_page",
    feature: "page",
    profile: "wasm-page",
    absent: &[("9uttt_core6search", "the search")],
    // The level names and thinking times the page offers.
    allowed: &["9uttt_core6search5level"],
};
/// The AI worker's module: no view and no tree.
pub const WORKER: Module = Module {
    name: "uttt_worker",
    feature: "worker",
    profile: "release",
    absent: &[
        ("9uttt_core4tree", "the tree of lines"),
        ("8uttt_web4view", "the view"),
        ("8uttt_web5lines", "the lines"),
        ("8uttt_web4game", "the page's game"),
    ],
    allowed: &[],
};
/// The benchmark's module (the worker's and the bench exports).
pub const BENCH: Module = Module {
    name: "uttt_bench",
    feature: "bench",
    profile: "release",
    absent: &[],
    allowed: &[],
};

/// The wasm-opt passes: `-Os` searched faster in Chromium than `-O2`,
/// `-O3`, `-O4` and `-Oz` and made the smaller module (the figures are in
/// docs/performance.md).
const WASM_OPT_LEVEL: &str = "-Os";
/// The WebAssembly features rustc's wasm32-unknown-unknown target emits
/// today, so wasm-opt reads the module and uses nothing beyond them.
const WASM_FEATURES: [&str; 6] = [
    "--enable-bulk-memory",
    "--enable-mutable-globals",
    "--enable-nontrapping-float-to-int",
    "--enable-sign-ext",
    "--enable-reference-types",
    "--enable-multivalue",
];

/// Which wasm to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavour {
    /// The game's two modules, into `www/pkg/`.
    Game,
    /// The benchmark's module, into the bench folder.
    Bench,
}

impl Flavour {
    fn modules(self) -> &'static [Module] {
        match self {
            Flavour::Game => &[PAGE, WORKER],
            Flavour::Bench => &[BENCH],
        }
    }
}

/// Where the game's generated glue and wasm go.
pub fn pkg_dir(root: &Path) -> PathBuf {
    root.join("www").join("pkg")
}

/// Where the bench flavour's glue and wasm go.
pub fn bench_pkg_dir(root: &Path) -> PathBuf {
    target_dir(root).join("uttt-xtask").join("bench-pkg")
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

/// Builds the game's two wasm modules and their glue into `www/pkg/`.
pub fn build(root: &Path) -> Result {
    build_flavour(root, Flavour::Game)
}

/// Builds every module of `flavour` into a folder emptied first, so no
/// stale file of an older build ships.
pub fn build_flavour(root: &Path, flavour: Flavour) -> Result {
    setup::ensure_wasm_target()?;
    let bindgen_bin = setup::ensure_bindgen_cli(root)?;
    setup::ensure_npm_packages(root)?;
    let pkg = match flavour {
        Flavour::Game => pkg_dir(root),
        Flavour::Bench => bench_pkg_dir(root),
    };
    if pkg.exists() {
        std::fs::remove_dir_all(&pkg)
            .map_err(|e| format!("cannot clear {}: {e}", pkg.display()))?;
    }
    for module in flavour.modules() {
        build_module(root, &bindgen_bin, *module, &pkg)?;
    }
    Ok(())
}

/// Builds `module` into `pkg`. Cargo writes every feature set of the crate
/// to the same file, so each is taken through wasm-bindgen before the next
/// is built.
fn build_module(root: &Path, bindgen_bin: &Path, module: Module, pkg: &Path) -> Result {
    cmd::run(
        cargo()
            .current_dir(root)
            .args(["build", "--package", WEB_CRATE, "--profile", module.profile])
            .args(["--target", setup::WASM_TARGET])
            .args(["--no-default-features", "--features", module.feature]),
        "building crates/web for wasm32",
    )?;
    let raw = target_dir(root)
        .join(setup::WASM_TARGET)
        .join(module.profile)
        .join(format!("{CARGO_OUT}.wasm"));
    if !raw.is_file() {
        return Err(format!(
            "cargo reported success but {} is missing",
            raw.display()
        ));
    }
    check_absent(module, &raw)?;
    cmd::run(
        Command::new(bindgen_bin.join("wasm-bindgen"))
            // With its .d.ts, which the type check reads (the site leaves it out).
            .args(["--target", "web", "--out-name", module.name, "--out-dir"])
            .arg(pkg)
            .arg(&raw),
        "wasm-bindgen",
    )?;
    let wasm = pkg.join(format!("{}_bg.wasm", module.name));
    let before = file_size(&wasm)?;
    optimise(root, &wasm)?;
    println!(
        "xtask: built {} ({} bytes; {before} before wasm-opt)",
        wasm.strip_prefix(root).unwrap_or(&wasm).display(),
        file_size(&wasm)?
    );
    Ok(())
}

/// Fails when cargo's `raw` module links a function of code `module` must
/// not have, read from the names cargo leaves in it.
fn check_absent(module: Module, raw: &Path) -> Result {
    let bytes = std::fs::read(raw).map_err(|e| format!("cannot read {}: {e}", raw.display()))?;
    let names = crate::wasmnames::function_names(&bytes)
        .map_err(|e| format!("cannot read the names in {}: {e}", raw.display()))?;
    if names.is_empty() && !module.absent.is_empty() {
        return Err(format!(
            "{} has no function names to check; the profile must keep them",
            raw.display()
        ));
    }
    for (path, what) in module.absent {
        let linked: Vec<&String> = names
            .iter()
            .filter(|n| n.contains(path) && !module.allowed.iter().any(|a| n.contains(a)))
            .collect();
        if let Some(first) = linked.first() {
            return Err(format!(
                "the {} module links {what}, which it must not have: {} functions, such as {first}",
                module.name,
                linked.len()
            ));
        }
    }
    Ok(())
}

/// Runs wasm-opt on `wasm` in place. It also drops the name section, which
/// only debuggers read.
fn optimise(root: &Path, wasm: &Path) -> Result {
    let wasm_opt = root.join("node_modules/binaryen/bin/wasm-opt");
    if !wasm_opt.is_file() {
        return Err(format!(
            "{} is missing: the npm package binaryen (package-lock.json) did not install",
            wasm_opt.display()
        ));
    }
    cmd::run(
        Command::new("node")
            .arg(&wasm_opt)
            .arg(WASM_OPT_LEVEL)
            .args(WASM_FEATURES)
            .arg(wasm)
            .arg("-o")
            .arg(wasm),
        "wasm-opt (npm binaryen)",
    )
}

fn file_size(path: &Path) -> Result<u64> {
    std::fs::metadata(path)
        .map(|m| m.len())
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
}
