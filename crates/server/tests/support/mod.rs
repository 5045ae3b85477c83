//! A real `uttt-server` process for the tests: started on a free port,
//! its output collected, killed when dropped.

#![allow(dead_code)]

pub mod api;
pub mod client;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use client::{classic, mv, Client};
use uttt_protocol::{ClientMessage, Presence, Role, RoomOptions};

/// A running server.
pub struct Server {
    pub child: Child,
    pub addr: SocketAddr,
    /// Every line it printed so far.
    pub output: Arc<Mutex<Vec<String>>>,
}

impl Server {
    /// Starts `uttt-server --addr 127.0.0.1:0 ARGS`, or `wrapper ... server`
    /// through `sh -c` when a shell prefix is given (e.g. a `ulimit`).
    pub fn start(args: &[&str]) -> Server {
        Server::start_with(None, args)
    }

    /// Each server gets a database of its own unless `--db` is given.
    pub fn start_with(shell_prefix: Option<&str>, args: &[&str]) -> Server {
        let args = with_db(args);
        let bin = env!("CARGO_BIN_EXE_uttt-server");
        let command = match shell_prefix {
            Some(prefix) => {
                let mut c = Command::new("sh");
                let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
                c.arg("-c").arg(format!(
                    "{prefix}; exec '{bin}' --addr 127.0.0.1:0 {}",
                    quoted.join(" ")
                ));
                c
            }
            None => {
                let mut c = Command::new(bin);
                c.arg("--addr").arg("127.0.0.1:0").args(args);
                c
            }
        };
        Server::spawn(command)
    }

    /// Starts `WRAPPER... uttt-server --addr 127.0.0.1:0 ARGS`: the wrapper
    /// runs the server (e.g. `unshare ... sh -c '...; exec "$@"' sh`).
    pub fn start_wrapped(wrapper: &[&str], args: &[&str]) -> Server {
        Server::spawn(wrapped(wrapper, &with_db(args)))
    }

    fn spawn(mut command: Command) -> Server {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start uttt-server");
        let output = Arc::new(Mutex::new(Vec::new()));
        let stdout = child.stdout.take().unwrap();
        let stderr = child.stderr.take().unwrap();
        for stream in [Box::new(stdout) as Box<dyn Read + Send>, Box::new(stderr)] {
            let output = Arc::clone(&output);
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    output.lock().unwrap().push(line);
                }
            });
        }
        let deadline = Instant::now() + Duration::from_secs(20);
        let addr = loop {
            let found = output.lock().unwrap().iter().find_map(|line| {
                let rest = line.strip_prefix("uttt-server: serving http://")?;
                rest.split('/').next()?.parse().ok()
            });
            if let Some(addr) = found {
                break addr;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not start: {:?}",
                output.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        Server {
            child,
            addr,
            output,
        }
    }

    /// Sends `request` as is and returns everything the server answered
    /// until it closed the connection (or 5 s passed).
    pub fn raw(&self, request: &[u8]) -> String {
        let mut stream = TcpStream::connect(self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        stream.write_all(request).unwrap();
        let mut reply = Vec::new();
        let _ = stream.read_to_end(&mut reply);
        String::from_utf8_lossy(&reply).into_owned()
    }

    /// Sends `METHOD path` with this server's own `Host` and `headers`
    /// (each `Name: value`), and returns everything it answered.
    pub fn request(&self, method: &str, path: &str, headers: &[&str]) -> String {
        let mut request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
            self.addr
        );
        for h in headers {
            request.push_str(h);
            request.push_str("\r\n");
        }
        request.push_str("\r\n");
        self.raw(request.as_bytes())
    }

    /// A GET of `path` with `headers` (each `Name: value`), connection closed after.
    pub fn get(&self, path: &str, headers: &[&str]) -> String {
        self.request("GET", path, headers)
    }

    pub fn lines(&self) -> Vec<String> {
        self.output.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `args`, with a database of its own unless `--db` is given.
fn with_db(args: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = args.iter().map(|a| (*a).to_string()).collect();
    if !args.iter().any(|a| a == "--db") {
        args.extend(["--db".into(), fresh_db().to_str().unwrap().into()]);
    }
    args
}

/// `WRAPPER... uttt-server --addr 127.0.0.1:0 ARGS`.
fn wrapped(wrapper: &[&str], args: &[String]) -> Command {
    let (program, before) = wrapper.split_first().expect("a wrapper program");
    let mut command = Command::new(program);
    command
        .args(before)
        .arg(env!("CARGO_BIN_EXE_uttt-server"))
        .args(["--addr", "127.0.0.1:0"])
        .args(args);
    command
}

/// Runs a server that is expected not to start (through `wrapper`, if not
/// empty) and returns (whether it exited with success, everything it
/// printed); it is killed if it is still running after 20 s.
pub fn start_refused(wrapper: &[&str], args: &[&str]) -> (bool, String) {
    let mut command = if wrapper.is_empty() {
        let mut c = Command::new(env!("CARGO_BIN_EXE_uttt-server"));
        c.args(["--addr", "127.0.0.1:0"]).args(args);
        c
    } else {
        let args: Vec<String> = args.iter().map(|a| (*a).to_string()).collect();
        wrapped(wrapper, &args)
    };
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start uttt-server");
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), said)
}

/// A database path no other test uses.
pub fn fresh_db() -> PathBuf {
    scratch("db").join("rooms.sqlite3")
}

/// A fresh folder under the system's temp folder, no other test's.
pub fn scratch(name: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("uttt-server-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A small site: an index page, a module, a wasm file.
pub fn small_site(name: &str) -> PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(dir.join("www")).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><title>t</title>").unwrap();
    std::fs::write(dir.join("www/main.js"), "export const x = 1;\n".repeat(200)).unwrap();
    std::fs::write(dir.join("www/m.wasm"), [0u8, 97, 115, 109, 1, 0, 0, 0]).unwrap();
    dir
}

/// A server of the small site `name` over the database `db`, taking 600
/// new players a minute (these tests make many), with `more` arguments.
pub fn players_server(name: &str, db: &Path, more: &[&str]) -> Server {
    let site = small_site(name);
    let mut args = vec![
        "--site",
        site.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
        "--signups-per-minute",
        "600",
    ];
    args.extend_from_slice(more);
    Server::start(&args)
}

/// The value of header `name` (any case) in a raw answer.
pub fn header<'a>(reply: &'a str, name: &str) -> Option<&'a str> {
    let head = reply.split("\r\n\r\n").next()?;
    head.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.eq_ignore_ascii_case(name).then(|| value.trim())
    })
}

pub fn repo_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// A room with both seats taken: (X's client, O's client, room code, tokens).
pub fn seated(server: &Server, options: RoomOptions) -> (Client, Client, String, [String; 2]) {
    let mut a = Client::connect(server.addr);
    a.send(&ClientMessage::Create { options });
    let (room, role, token_a) = a.joined();
    assert_eq!(role, Role::Seat0);
    let mut b = Client::connect(server.addr);
    b.send(&ClientMessage::Join {
        room: room.clone(),
        token: None,
    });
    let (_, role, token_b) = b.joined();
    assert_eq!(role, Role::Seat1);
    a.state(|s| s.o == Presence::Connected);
    (a, b, room, [token_a.unwrap(), token_b.unwrap()])
}

/// A rated Classic game of 3+2.
pub fn rated_classic() -> RoomOptions {
    RoomOptions {
        days: None,
        clock: Some(uttt_protocol::ClockSetting {
            initial: 180,
            increment: 2,
        }),
        rated: true,
        ..classic()
    }
}

/// A rated Classic room between `x` and `o` (sessions), both seated.
pub fn rated_room(server: &Server, x: &str, o: &str) -> (Client, Client) {
    let mut a = Client::connect_as(server.addr, Some(x));
    a.send(&ClientMessage::Create {
        options: rated_classic(),
    });
    let (room, _, _) = a.joined();
    let mut b = Client::connect_as(server.addr, Some(o));
    b.send(&ClientMessage::Join { room, token: None });
    assert_eq!(b.joined().1, Role::Seat1);
    a.state(|s| s.o_name.is_some());
    (a, b)
}

/// Plays a rated Classic game between the sessions `x` and `o` that X
/// wins on c1-b2-a3.
pub fn rated_win(server: &Server, x: &str, o: &str) {
    let (mut a, mut b) = rated_room(server, x, o);
    let mut last = None;
    for (ply, cell) in [4, 0, 2, 1, 6].into_iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut a } else { &mut b };
        mover.send(&mv(ply as u32, 0, cell));
        last = Some(mover.state(|s| s.record.len() == "classic:".len() + 2 * (ply + 1)));
    }
    assert!(last.unwrap().result.is_some(), "the game did not end");
}

/// Moves the server's clocks `ms` forward (`POST /test/clock`, the
/// failpoints build) and returns its answer (`{woken, reminded}`).
pub fn skip(server: &Server, ms: u64) -> serde_json::Value {
    let reply = api::call(
        server,
        "POST",
        "/test/clock",
        &api::Who::default(),
        &format!("{{\"skipMs\":{ms}}}"),
    );
    assert_eq!(reply.status, 200, "{}", reply.raw);
    reply.body
}

/// `challenger` challenges the player named `to` to a game of `options`:
/// the challenge's id.
pub fn challenge(challenger: &mut Client, options: RoomOptions, to: &str) -> String {
    challenger.send(&ClientMessage::Challenge {
        options,
        to: Some(to.to_string()),
    });
    challenger.until("challenging", |m| match m {
        uttt_protocol::ServerMessage::Challenging { id } => Some(id.clone()),
        uttt_protocol::ServerMessage::Error { code, message } => {
            panic!("challenge refused: {code:?} {message}")
        }
        _ => None,
    })
}

/// A game of `options` between the sessions `challenger` and `other`
/// (named `other_name`), who accepts the challenge: both seated, their
/// clients and the room's code.
pub fn challenged(
    server: &Server,
    challenger: &str,
    options: RoomOptions,
    (other, other_name): (&str, &str),
) -> (Client, Client, String) {
    let mut a = Client::connect_as(server.addr, Some(challenger));
    let id = challenge(&mut a, options, other_name);
    let mut b = Client::connect_as(server.addr, Some(other));
    b.send(&ClientMessage::AcceptChallenge { id });
    let (code, _, _) = a.joined();
    b.joined();
    (a, b, code)
}
