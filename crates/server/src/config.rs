//! The server's settings, from its command line.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// How the server runs. Every limit has a default fit for one machine
/// serving the game to the public; tests and load tests raise or lower them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The folder the site is served from.
    pub site: PathBuf,
    /// The URL path the site lives under: `/`, or e.g. `/uttt/`.
    pub prefix: String,
    /// When set, only these top-level names of `site` are served (used
    /// when serving the repository itself, so Cargo.toml and .git stay
    /// private).
    pub entries: Option<Vec<String>>,
    /// Print one line per request.
    pub log: bool,
    /// Open connections at most, over all clients.
    pub max_connections: usize,
    /// Open connections at most from one client (an IPv4 address or an
    /// IPv6 /64, see `network.rs`).
    pub max_connections_per_address: usize,
    /// Game connections (WebSockets) at most, when set; else nine tenths of
    /// `max_connections`. The rest stays for the site's pages and files.
    pub max_game_connections: Option<usize>,
    /// Game connections at most that are in no room yet.
    pub max_waiting: usize,
    /// How long a game connection may stay in no room before it is closed.
    pub join_within: Duration,
    /// How long a client may take to send a request's head.
    pub header_timeout: Duration,
    /// Rooms open at most.
    pub max_rooms: usize,
    /// Rooms one client address may create per minute.
    pub rooms_per_address_per_minute: u32,
    /// Origins besides the server's own whose pages may play here.
    pub allowed_origins: Vec<String>,
    /// Host names (`NAME` or `NAME:PORT`) the server answers to besides
    /// its addresses and, on loopback, `localhost` (see `hosts.rs`).
    pub hosts: Vec<String>,
    /// Addresses of proxies in front of the server: a connection from one
    /// is counted as the client its `X-Forwarded-For` names (see
    /// `network::forwarded_client`), not as the proxy.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// How long a player may be away from a timed game before losing.
    pub grace_ms: u64,
    /// How long a room nobody is in stays in memory (it stays stored).
    pub idle_room: Duration,
    /// How long a room nobody is in and whose first game has no move
    /// lives at all: then it is deleted, from the store too.
    pub unplayed_room: Duration,
    /// The SQLite file the rooms are kept in.
    pub db: PathBuf,
    /// Begin with no rooms where the database a server used is missing
    /// (else the server refuses to start, so a lost file is not replaced
    /// by an empty one unnoticed).
    pub new_db: bool,
    /// Frames a second one client address may send over all its
    /// connections (in bursts of twice that).
    pub messages_per_address: u32,
    /// Rooms one client may enter a second, over all its connections (in
    /// bursts of twice that).
    pub joins_per_address: u32,
    /// New players one client address may make a minute (after a first
    /// burst of at least ten): enough for a household or a classroom behind
    /// one address, too few to fill the database with names.
    pub signups_per_minute: u32,
    /// The contact push services are given with each notice (the VAPID
    /// `sub` claim: a `mailto:` or `https:` URL); Apple's asks for one.
    pub push_contact: Option<String>,
    /// Whether push subscriptions may name `http://127.0.0.1` endpoints
    /// (the tests' own push service); never on a public server.
    pub push_to_loopback: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8000)),
            site: PathBuf::from("."),
            prefix: "/".into(),
            entries: None,
            log: false,
            max_connections: 10_000,
            max_connections_per_address: 64,
            max_game_connections: None,
            max_waiting: 1_000,
            join_within: Duration::from_secs(20),
            header_timeout: Duration::from_secs(10),
            max_rooms: 10_000,
            rooms_per_address_per_minute: 20,
            allowed_origins: Vec::new(),
            hosts: Vec::new(),
            trusted_proxies: Vec::new(),
            grace_ms: crate::room::GRACE_MS,
            idle_room: Duration::from_secs(10 * 60),
            unplayed_room: Duration::from_secs(60),
            db: default_db(),
            new_db: false,
            messages_per_address: 100,
            signups_per_minute: 6,
            joins_per_address: 10,
            push_contact: None,
            push_to_loopback: false,
        }
    }
}

/// `uttt-server.sqlite3` next to the server's binary (in the working
/// folder if the binary's own cannot be found).
fn default_db() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(DB_NAME)))
        .unwrap_or_else(|| PathBuf::from(DB_NAME))
}

const DB_NAME: &str = "uttt-server.sqlite3";

/// What `uttt-server --help` prints.
pub const USAGE: &str = "\
uttt-server: the Ultimate Tic-Tac-Toe site, and online play

usage: uttt-server [options]
  --addr HOST:PORT              where to listen (default 127.0.0.1:8000; port 0 picks a free one)
  --site DIR                    the folder to serve (default .)
  --prefix /PATH/               the URL path the site lives under (default /)
  --entries a,b,c               serve only these top-level names of the site folder
  --log                         print one line per request
  --max-connections N           open connections at most (default 10000)
  --max-connections-per-address N
                                open connections at most from one address, an IPv6 /64 counting
                                as one (default 64)
  --max-game-connections N      game connections at most, below --max-connections so the site's
                                pages are served when they are full (default nine tenths of it)
  --max-waiting N               game connections in no room yet at most (default 1000)
  --join-within-ms N            time a game connection has to create or join a room (default 20000)
  --header-timeout-ms N         time to send a request head (default 10000)
  --max-rooms N                 rooms open at most (default 10000)
  --rooms-per-address N         rooms one address may create per minute (default 20)
  --allow-origin URL            also accept game connections from pages of URL (repeatable)
  --host NAME[:PORT]            also answer requests for this host name, with that port or any
                                (repeatable); without it only IP addresses, and on loopback
                                localhost, with the port listened on: name the public host here
                                when the server is reached by a name or through a proxy
  --trusted-proxy IP            a proxy in front of the server (repeatable): its connections count
                                as the client its X-Forwarded-For header names, for every limit
                                per address; without it X-Forwarded-For is ignored
  --grace-ms N                  how long a player may be away from a timed game (default 60000)
  --idle-room-ms N              how long a room nobody is in stays in memory (default 600000)
  --unplayed-room-ms N          how long a room nobody is in, without a move, lives before it is
                                deleted (default 60000)
  --messages-per-address N      game frames a second from one address, all its connections
                                together (default 100; each connection also 10)
  --joins-per-address N         rooms one address may enter a second (default 10)
  --signups-per-minute N        new players one address may make a minute, after a first
                                burst of N or 10, whichever is more (default 6)
  --db FILE                     the SQLite file the rooms are kept in
                                (default uttt-server.sqlite3 next to this binary)
  --new-db                      begin with no rooms if the database a server used before is
                                missing (without it the server refuses to start)
  --push-contact URL            the operator's contact given to push services with each
                                notification (mailto:... or https://...; Apple's asks for one)
  --push-to-loopback            let push subscriptions name http://127.0.0.1 endpoints (tests
                                only: a public server pushes only to https push services)
";

impl Config {
    /// Reads the command line (without the program name).
    ///
    /// # Errors
    /// A sentence naming the bad argument.
    pub fn parse(args: &[String]) -> Result<Config, String> {
        let mut config = Config::default();
        let mut rest = args.iter();
        while let Some(flag) = rest.next() {
            let mut value = |what: &str| {
                rest.next()
                    .cloned()
                    .ok_or_else(|| format!("{flag} needs {what}"))
            };
            match flag.as_str() {
                "--addr" => {
                    let text = value("an address such as 127.0.0.1:8000")?;
                    config.addr = text
                        .parse()
                        .map_err(|_| format!("--addr: `{text}` is not HOST:PORT"))?;
                }
                "--site" => config.site = PathBuf::from(value("a folder")?),
                "--prefix" => {
                    let prefix = value("a path such as /uttt/")?;
                    if !prefix.starts_with('/') || !prefix.ends_with('/') {
                        return Err(format!("--prefix: `{prefix}` must start and end with /"));
                    }
                    config.prefix = prefix;
                }
                "--entries" => {
                    let list = value("a comma-separated list of names")?;
                    config.entries = Some(list.split(',').map(str::to_string).collect());
                }
                "--log" => config.log = true,
                "--max-connections" => {
                    config.max_connections = count(flag, &value("a number")?)?;
                }
                "--max-connections-per-address" => {
                    config.max_connections_per_address = count(flag, &value("a number")?)?;
                }
                "--max-game-connections" => {
                    config.max_game_connections = Some(count(flag, &value("a number")?)?);
                }
                "--max-waiting" => config.max_waiting = count(flag, &value("a number")?)?,
                "--join-within-ms" => {
                    let ms = count(flag, &value("a number of milliseconds")?)?;
                    config.join_within = Duration::from_millis(ms as u64);
                }
                "--header-timeout-ms" => {
                    let ms = count(flag, &value("a number of milliseconds")?)?;
                    config.header_timeout = Duration::from_millis(ms as u64);
                }
                "--max-rooms" => config.max_rooms = count(flag, &value("a number")?)?,
                "--rooms-per-address" => {
                    let n = count(flag, &value("a number")?)?;
                    config.rooms_per_address_per_minute = u32::try_from(n).unwrap_or(u32::MAX);
                }
                "--db" => config.db = PathBuf::from(value("a file")?),
                "--new-db" => config.new_db = true,
                "--push-contact" => {
                    let contact = value("a mailto: or https: URL")?;
                    if !contact.starts_with("mailto:") && !contact.starts_with("https://") {
                        return Err(format!(
                            "--push-contact: `{contact}` is not a mailto: or https: URL"
                        ));
                    }
                    config.push_contact = Some(contact);
                }
                "--push-to-loopback" => config.push_to_loopback = true,
                "--messages-per-address" => {
                    let n = count(flag, &value("a number")?)?;
                    config.messages_per_address = u32::try_from(n).unwrap_or(u32::MAX);
                }
                "--joins-per-address" => {
                    let n = count(flag, &value("a number")?)?;
                    config.joins_per_address = u32::try_from(n).unwrap_or(u32::MAX);
                }
                "--signups-per-minute" => {
                    let n = count(flag, &value("a number")?)?;
                    config.signups_per_minute = u32::try_from(n).unwrap_or(u32::MAX);
                }
                "--grace-ms" => {
                    config.grace_ms = count(flag, &value("a number of milliseconds")?)? as u64
                }
                "--idle-room-ms" => {
                    let ms = count(flag, &value("a number of milliseconds")?)?;
                    config.idle_room = Duration::from_millis(ms as u64);
                }
                "--unplayed-room-ms" => {
                    let ms = count(flag, &value("a number of milliseconds")?)?;
                    config.unplayed_room = Duration::from_millis(ms as u64);
                }
                "--allow-origin" => config
                    .allowed_origins
                    .push(value("an origin such as https://example.org")?),
                "--host" => {
                    let name = value("a host name such as play.example.org")?;
                    crate::hosts::check_name(&name)?;
                    config.hosts.push(name);
                }
                "--trusted-proxy" => {
                    let text = value("an IP address such as 127.0.0.1")?;
                    let ip = text
                        .parse()
                        .map_err(|_| format!("--trusted-proxy: `{text}` is not an IP address"))?;
                    config.trusted_proxies.push(ip);
                }
                other => return Err(format!("unknown argument `{other}` (see --help)")),
            }
        }
        if config.max_connections < 2 {
            return Err("--max-connections: at least 2 (one for a game, one for the site)".into());
        }
        if let Some(game) = config.max_game_connections {
            if game >= config.max_connections {
                return Err(format!(
                    "--max-game-connections: {game} must be below --max-connections ({}), \
                     so the site's pages are served when game connections are full",
                    config.max_connections
                ));
            }
        }
        Ok(config)
    }

    /// Game connections at most: the set limit, or nine tenths of all
    /// connections (at least one, and always at least one below all).
    #[must_use]
    pub fn game_connections(&self) -> usize {
        self.max_game_connections
            .unwrap_or(self.max_connections - self.max_connections.div_ceil(10))
            .max(1)
    }
}

/// A count from 1 to 1,000,000.
fn count(flag: &str, text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=1_000_000).contains(&n) => Ok(n),
        _ => Err(format!(
            "{flag}: `{text}` is not a number from 1 to 1000000"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Config, String> {
        Config::parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn reads_every_option() {
        let c = parse(&[
            "--addr",
            "127.0.0.1:0",
            "--site",
            "dist",
            "--prefix",
            "/uttt/",
            "--entries",
            "index.html,www",
            "--log",
            "--max-connections",
            "5",
            "--max-connections-per-address",
            "2",
            "--header-timeout-ms",
            "250",
            "--max-game-connections",
            "3",
            "--max-waiting",
            "2",
            "--join-within-ms",
            "300",
            "--host",
            "play.example.org",
            "--host",
            "lan.example:8443",
            "--signups-per-minute",
            "60",
            "--trusted-proxy",
            "::1",
        ])
        .unwrap();
        assert_eq!(c.hosts, ["play.example.org", "lan.example:8443"]);
        assert_eq!(
            c.trusted_proxies,
            ["::1".parse::<std::net::IpAddr>().unwrap()]
        );
        assert_eq!(c.signups_per_minute, 60);
        assert_eq!((c.game_connections(), c.max_waiting), (3, 2));
        assert_eq!(c.join_within, Duration::from_millis(300));
        assert_eq!(c.addr, "127.0.0.1:0".parse().unwrap());
        assert_eq!(c.prefix, "/uttt/");
        assert_eq!(c.entries, Some(vec!["index.html".into(), "www".into()]));
        assert!(c.log);
        assert_eq!((c.max_connections, c.max_connections_per_address), (5, 2));
        assert_eq!(c.header_timeout, Duration::from_millis(250));
    }

    #[test]
    fn game_connections_leave_room_for_the_site() {
        assert_eq!(Config::default().game_connections(), 9_000);
        assert_eq!(
            parse(&["--max-connections", "2"])
                .unwrap()
                .game_connections(),
            1
        );
        assert_eq!(
            parse(&["--max-connections", "25"])
                .unwrap()
                .game_connections(),
            22
        );
    }

    #[test]
    fn refuses_bad_arguments() {
        for bad in [
            &["--addr", "localhost"][..],
            &["--prefix", "uttt"],
            &["--max-connections", "0"],
            &["--max-connections", "99999999999"],
            &["--max-connections", "1"],
            &["--max-connections", "5", "--max-game-connections", "5"],
            &["--max-waiting", "0"],
            &["--join-within-ms", "x"],
            &["--site"],
            &["--host", "https://play.example.org"],
            &["--host"],
            &["--trusted-proxy", "proxy.example"],
            &["--trusted-proxy", "10.0.0.0/8"],
            &["--push-contact", "admin@example.org"],
            &["--bogus"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
