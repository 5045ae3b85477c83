//! Installs what the commands need and is missing: the wasm32 target, the
//! bindgen CLI at the lockfile's version, Debian's Chromium and ChromeDriver,
//! and the npm packages of the committed lockfile. When it cannot install
//! something itself (not root), it says exactly what to run.

use crate::cmd::{self, cargo};
use crate::{lockfile, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The target the web crate is compiled for.
pub const WASM_TARGET: &str = "wasm32-unknown-unknown";
/// Debian's Chromium, which every browser test drives.
pub const CHROMIUM: &str = "/usr/bin/chromium";
/// Debian's ChromeDriver, used by wasm-bindgen-test-runner.
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Adds the wasm32 target through rustup when it is not installed.
pub fn ensure_wasm_target() -> Result {
    if !cmd::exists("rustup") {
        // Without rustup (a distribution toolchain) the target either
        // came with the toolchain or cannot be added by us.
        return Ok(());
    }
    let installed = cmd::output(
        Command::new("rustup").args(["target", "list", "--installed"]),
        "listing the installed rustup targets",
    )?;
    if installed.lines().any(|line| line.trim() == WASM_TARGET) {
        return Ok(());
    }
    cmd::run(
        Command::new("rustup").args(["target", "add", WASM_TARGET]),
        "installing the wasm32 target",
    )
}

/// Adds rustfmt or clippy through rustup when a minimal toolchain lacks them.
pub fn ensure_component(component: &str) -> Result {
    if !cmd::exists("rustup") {
        return Ok(());
    }
    let installed = cmd::output(
        Command::new("rustup").args(["component", "list", "--installed"]),
        "listing the installed rustup components",
    )?;
    // Installed components are listed with the host triple: `clippy-x86_64-…`.
    if installed
        .lines()
        .any(|line| line.trim().starts_with(&format!("{component}-")))
    {
        return Ok(());
    }
    cmd::run(
        Command::new("rustup").args(["component", "add", component]),
        &format!("installing the rustup component {component}"),
    )
}

/// The bindgen CLI's folder for one version; it lives outside the repository
/// so fresh clones on the same machine share one build of it.
fn bindgen_root(version: &str) -> Result<PathBuf> {
    let cache = match std::env::var_os("XDG_CACHE_HOME") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => {
            let home = std::env::var_os("HOME")
                .ok_or("HOME is not set; cannot choose where to keep the bindgen CLI")?;
            PathBuf::from(home).join(".cache")
        }
    };
    Ok(cache
        .join("uttt-xtask")
        .join(format!("wasm-bindgen-cli-{version}")))
}

/// The folder holding `wasm-bindgen` and `wasm-bindgen-test-runner` at
/// exactly the version Cargo.lock pins, built from source by cargo if absent.
pub fn ensure_bindgen_cli(root: &Path) -> Result<PathBuf> {
    let version = lockfile::wasm_bindgen_version(root)?;
    let install_root = bindgen_root(&version)?;
    let bin = install_root.join("bin");
    if bindgen_matches(&bin, &version) {
        return Ok(bin);
    }
    println!(
        "xtask: wasm-bindgen-cli {version} is not in {}; building it from source (a few minutes, once per machine)",
        install_root.display()
    );
    let install = |locked: bool| {
        let mut command = cargo();
        command.args([
            "install",
            "--version",
            &format!("={version}"),
            "wasm-bindgen-cli",
        ]);
        command.args(["--no-default-features", "--force", "--root"]);
        command.arg(&install_root);
        if locked {
            command.arg("--locked");
        }
        cmd::run(&mut command, "building wasm-bindgen-cli")
    };
    if let Err(locked_error) = install(true) {
        println!(
            "xtask: `cargo install --locked` failed ({locked_error}). The CLI's own lockfile can pin \
             a crate version the registry no longer serves (webpki-roots 1.0.11 here); retrying \
             without --locked, which resolves its dependencies afresh (same wasm-bindgen version)."
        );
        install(false)?;
    }
    if bindgen_matches(&bin, &version) {
        Ok(bin)
    } else {
        Err(format!(
            "wasm-bindgen-cli {version} was installed into {} but `wasm-bindgen --version` does not report {version}",
            install_root.display()
        ))
    }
}

fn bindgen_matches(bin: &Path, version: &str) -> bool {
    let tool = bin.join("wasm-bindgen");
    if !tool.is_file() || !bin.join("wasm-bindgen-test-runner").is_file() {
        return false;
    }
    Command::new(&tool)
        .arg("--version")
        .output()
        .map(|out| {
            String::from_utf8_lossy(&out.stdout)
                .split_whitespace()
                .any(|word| word == version)
        })
        .unwrap_or(false)
}

/// Whether we run as root, and so may install Debian packages ourselves.
fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
        .unwrap_or(false)
}

/// Installs Debian packages when root, else explains which to install.
fn apt_install(packages: &[&str], why: &str) -> Result {
    let list = packages.join(" ");
    if !is_root() || !cmd::exists("apt-get") {
        return Err(format!(
            "{why} is missing. Install it with: sudo apt-get update && sudo apt-get install -y {list}"
        ));
    }
    println!("xtask: {why} is missing; installing {list} with apt-get");
    let noninteractive = |command: &mut Command| {
        command.env("DEBIAN_FRONTEND", "noninteractive");
    };
    let mut update = Command::new("apt-get");
    update.arg("update");
    noninteractive(&mut update);
    cmd::run(&mut update, "apt-get update")?;
    let mut install = Command::new("apt-get");
    install.args(["install", "-y"]).args(packages);
    noninteractive(&mut install);
    cmd::run(&mut install, &format!("apt-get install {list}"))
}

/// A font with Chinese glyphs: without one, the Chinese page's labels are
/// drawn as boxes of another width, and the layout specs would measure
/// text that no player sees.
const CJK_FONT: &str = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";

/// Debian's Chromium and ChromeDriver at /usr/bin.
pub fn ensure_browser() -> Result {
    if Path::new(CHROMIUM).is_file() && Path::new(CHROMEDRIVER).is_file() {
        return Ok(());
    }
    apt_install(
        &["chromium", "chromium-driver"],
        "Chromium or ChromeDriver (/usr/bin/chromium, /usr/bin/chromedriver)",
    )
}

/// OpenSSL's headers and pkg-config, which the server's Web Push (its
/// encryption and its client's TLS) is built against.
pub fn ensure_openssl() -> Result {
    let found = cmd::exists("pkg-config")
        && Command::new("pkg-config")
            .args(["--exists", "openssl"])
            .status()
            .is_ok_and(|s| s.success());
    if found {
        return Ok(());
    }
    apt_install(
        &["pkg-config", "libssl-dev"],
        "OpenSSL's headers (libssl-dev) or pkg-config",
    )
}

/// The Chinese font the end-to-end tests draw the Chinese page with.
pub fn ensure_cjk_font() -> Result {
    if Path::new(CJK_FONT).is_file() {
        return Ok(());
    }
    apt_install(&["fonts-noto-cjk"], "a Chinese font (fonts-noto-cjk)")
}

/// Node.js, npm and the packages of package-lock.json in node_modules/.
pub fn ensure_npm_packages(root: &Path) -> Result {
    if !cmd::exists("node") || !cmd::exists("npm") {
        apt_install(&["nodejs", "npm"], "Node.js or npm")?;
    }
    // Playwright 1.65 (package-lock.json) needs Node.js 20 or newer.
    let version = cmd::output(Command::new("node").arg("--version"), "node --version")?;
    let major = version
        .trim()
        .trim_start_matches('v')
        .split('.')
        .next()
        .and_then(|m| m.parse::<u32>().ok());
    if major.is_none_or(|m| m < 20) {
        return Err(format!(
            "the build (wasm-opt) and the Playwright tests need Node.js 20 or newer, found {}; install a newer nodejs",
            version.trim()
        ));
    }
    let lock = root.join("package-lock.json");
    // npm writes node_modules/.package-lock.json on every install: when it
    // is at least as new as the committed lockfile, node_modules is current.
    let installed = root.join("node_modules").join(".package-lock.json");
    if modified(&installed).is_some() && modified(&installed) >= modified(&lock) {
        return Ok(());
    }
    let mut npm = Command::new("npm");
    npm.args(["ci", "--no-audit", "--no-fund"])
        .current_dir(root)
        // Playwright must drive Debian's Chromium; its own browser
        // download is neither wanted nor reachable.
        .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
    cmd::run(
        &mut npm,
        "npm ci (installing wasm-opt and the test packages of package-lock.json)",
    )
}

fn modified(path: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}
