//! Play now: one actor owns every pool of players waiting for a game and
//! pairs them (`docs/protocol.md`, "Play now").
//!
//! A pool is one game setting ([`SeekOptions`]: kind, rules, clock,
//! rated). Each seeker is paired with the waiting player of the closest
//! rating whose gap either of the two accepts; a seeker accepts a gap of
//! [`BASE_RANGE`] at first, widened by [`WIDEN_PER_SECOND`] for every
//! second waited, so nobody waits long for want of an equal. A player is
//! never paired with themselves (two tabs of one account). X goes to the
//! one of the two who played O more often in their recent games.
//!
//! A pairing is a room made for the two, both seated: each seeker's
//! connection hears `joined` and the room's state, as after `create` and
//! `join`, and plays on as in any room.
//!
//! Challenges live here too (see `challenges.rs`): a game offered to
//! anyone or to one player, waiting while its challenger's connection
//! does; accepting one makes its room as a pairing does.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, oneshot};
use uttt_protocol::{
    write, ClockSetting, ColourChoice, ErrorCode, Kind, Refusal, RoomOptions, RuleSet, SeekOptions,
    ServerMessage, DAYS_PER_MOVE,
};

use crate::challenges::{Challenge, Challenges, Listed, Offer};
use crate::hub::{Command, Hub, Membership, Outbox};
use crate::players::Player;
use crate::rating::Rating;

/// The rating gap a newcomer accepts.
pub const BASE_RANGE: f64 = 100.0;
/// How much wider the accepted gap grows each second waited.
pub const WIDEN_PER_SECOND: f64 = 50.0;
/// How often the pools are paired again (ranges widen) and their
/// waiters told how many wait with them.
const TICK: Duration = Duration::from_millis(500);
/// Commands waiting for the lobby at most; beyond, a seek is refused as
/// the server being busy.
const QUEUE: usize = 4096;
/// The longest a seek waits: then it ends (`seekEnded`), so a connection
/// in a pool nobody else seeks holds no place for good.
pub const MAX_WAIT: Duration = Duration::from_secs(600);

/// Who a seeker is, for the rule that nobody plays themselves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Who {
    Player(i64),
    Guest(u64),
}

/// What a seeker learns when their wait ends in a pairing: their place in
/// the new room, or the frame that says why there is none (an error, or
/// `challengeEnded`; they may seek again).
pub type Pairing = Result<Membership, ServerMessage>;

/// One player waiting in a pool.
pub struct Seeker {
    /// The connection's number.
    pub conn: u64,
    /// The signed-in player, if any (a rated seek always has one).
    pub player: Option<Player>,
    /// Their rating in the pool's performance.
    pub rating: Rating,
    /// X games minus O games among their recent games.
    pub colour_balance: i32,
    /// Where the room's frames go: the connection's outbox.
    pub out: Outbox,
    /// Where the pairing goes.
    pub paired: oneshot::Sender<Pairing>,
}

impl Seeker {
    pub(crate) fn who(&self) -> Who {
        self.player
            .as_ref()
            .map_or(Who::Guest(self.conn), |p| Who::Player(p.id))
    }
}

struct Waiting {
    seeker: Seeker,
    since: Instant,
}

impl Waiting {
    /// The gap this waiter accepts at `now`.
    fn range(&self, now: Instant) -> f64 {
        BASE_RANGE + WIDEN_PER_SECOND * now.duration_since(self.since).as_secs_f64()
    }
}

pub(crate) enum LobbyCommand {
    Seek(SeekOptions, Seeker),
    /// Answers whether the seek or challenge was still waiting (and is now
    /// cancelled); false when it was already taken for a pairing, or
    /// never was.
    Cancel(u64, oneshot::Sender<bool>),
    /// A challenge to add, answered with its id.
    Challenge(Box<Offer>, oneshot::Sender<Result<String, Refusal>>),
    /// A challenge back after its accepter left before the room was made.
    Restore(Box<Challenge>),
    /// Challenge `id` accepted by the seeker (its wait for the room starts).
    Accept(String, Seeker, oneshot::Sender<Result<(), Refusal>>),
    /// Challenge `id` declined by player `player`.
    Decline(String, i64, oneshot::Sender<Result<(), Refusal>>),
}

/// The pools' sizes, for the Play view (`GET /api/pools`).
pub type Counts = Vec<(SeekOptions, u32)>;

/// The Play now buttons the page shows, as (initial seconds, increment):
/// a bullet, two blitz and a rapid game (see `rating.rs` for the speeds).
pub const OFFERED_CLOCKS: [(u32, u32); 4] = [(60, 1), (180, 2), (300, 0), (600, 5)];

/// Every pool the page offers, Ultimate standard first, then tie-break,
/// then Classic, each rated then casual, the live clocks then the days per
/// move (other clocks may be asked for over the protocol).
#[must_use]
pub fn offered() -> Vec<SeekOptions> {
    let games = [
        (Kind::Ultimate, RuleSet::Standard),
        (Kind::Ultimate, RuleSet::Tiebreak),
        (Kind::Classic, RuleSet::Standard),
    ];
    let mut pools = Vec::new();
    for (kind, rules) in games {
        for rated in [true, false] {
            for (initial, increment) in OFFERED_CLOCKS {
                pools.push(SeekOptions {
                    days: None,
                    kind,
                    rules,
                    clock: Some(ClockSetting { initial, increment }),
                    rated,
                });
            }
            for days in DAYS_PER_MOVE {
                pools.push(SeekOptions {
                    days: Some(days),
                    kind,
                    rules,
                    clock: None,
                    rated,
                });
            }
        }
    }
    pools
}

/// The handle to the lobby's actor.
pub struct Lobby {
    queue: mpsc::Sender<LobbyCommand>,
    counts: Arc<Mutex<Counts>>,
    challenges: Arc<Mutex<Arc<Vec<Listed>>>>,
    push: crate::push::Push,
    /// When each challenger last had a challenge told to each addressee:
    /// once every `MAX_WAIT` a pair, so challenging and withdrawing in a
    /// loop floods nobody's notifications.
    told: Mutex<HashMap<(i64, i64), Instant>>,
}

impl Lobby {
    /// Starts the lobby's actor; its pairings become rooms of `hub`.
    #[must_use]
    pub fn start(hub: Arc<Hub>) -> Lobby {
        let (queue, commands) = mpsc::channel(QUEUE);
        let counts = Arc::new(Mutex::new(Vec::new()));
        let challenges = Arc::new(Mutex::new(Arc::new(Vec::new())));
        let push = hub.push().clone();
        let starter = Starter {
            hub,
            lobby: queue.downgrade(),
        };
        let published = Published {
            counts: Arc::clone(&counts),
            challenges: Arc::clone(&challenges),
        };
        tokio::spawn(run(starter, commands, published));
        Lobby {
            queue,
            counts,
            challenges,
            push,
            told: Mutex::new(HashMap::new()),
        }
    }

    /// Every challenge waiting now, oldest first: shared, so that a reader
    /// holds the lobby's lock only to take it.
    #[must_use]
    pub fn challenges(&self) -> Arc<Vec<Listed>> {
        self.challenges
            .lock()
            .map(|c| Arc::clone(&c))
            .unwrap_or_default()
    }

    /// Sends `command` and waits for its answer; a lobby that is gone or
    /// too busy refuses.
    async fn ask<T>(
        &self,
        command: LobbyCommand,
        answer: oneshot::Receiver<Result<T, Refusal>>,
    ) -> Result<T, Refusal> {
        let busy = || {
            Refusal::new(
                ErrorCode::ServerFull,
                "too many players are looking for a game; try again soon",
            )
        };
        self.queue.try_send(command).map_err(|_| busy())?;
        answer.await.map_err(|_| busy())?
    }

    /// Adds the challenge `offer`; its id, or why not.
    ///
    /// # Errors
    /// `too-many-challenges`, or `server-full`.
    /// Its addressee, if any, is told (`push`), at most once every
    /// `MAX_WAIT` by the same challenger.
    pub async fn challenge(&self, offer: Offer) -> Result<String, Refusal> {
        let told = offer
            .to
            .as_ref()
            .zip(offer.challenger.player.as_ref())
            .map(|((to, _), from)| (*to, from.clone(), offer.options));
        let (reply, answer) = oneshot::channel();
        let id = self
            .ask(LobbyCommand::Challenge(Box::new(offer), reply), answer)
            .await?;
        if let Some((to, from, options)) = told {
            if self.first_in_a_while(from.id, to) {
                let notice = crate::push::challenge(to, &from, &options, &id, MAX_WAIT);
                self.push.tell(notice);
            }
        }
        Ok(id)
    }

    /// Whether `from`'s challenge to `to` is the first in `MAX_WAIT` (and
    /// now the last); the others are forgotten as they age.
    fn first_in_a_while(&self, from: i64, to: i64) -> bool {
        let now = Instant::now();
        let mut told = self
            .told
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        told.retain(|_, at| now.duration_since(*at) < MAX_WAIT);
        if told.contains_key(&(from, to)) {
            return false;
        }
        told.insert((from, to), now);
        true
    }

    /// Accepts challenge `id` for `seeker`: the room comes on its channel.
    ///
    /// # Errors
    /// Why the challenge cannot be accepted (gone, not for this player,
    /// their own); nothing changed.
    pub async fn accept(&self, id: String, seeker: Seeker) -> Result<(), Refusal> {
        let (reply, answer) = oneshot::channel();
        self.ask(LobbyCommand::Accept(id, seeker, reply), answer)
            .await
    }

    /// Declines challenge `id` for its addressee `player`.
    ///
    /// # Errors
    /// Why not (gone, not addressed to this player); nothing changed.
    pub async fn decline(&self, id: String, player: i64) -> Result<(), Refusal> {
        let (reply, answer) = oneshot::channel();
        self.ask(LobbyCommand::Decline(id, player, reply), answer)
            .await
    }

    /// Puts `seeker` in the pool of `seek`.
    ///
    /// # Errors
    /// `server-full` when the lobby cannot take more now.
    pub fn seek(&self, seek: SeekOptions, seeker: Seeker) -> Result<(), Refusal> {
        self.queue
            .try_send(LobbyCommand::Seek(seek, seeker))
            .map_err(|_| {
                Refusal::new(
                    ErrorCode::ServerFull,
                    "too many players are looking for a game; try again soon",
                )
            })
    }

    /// Takes connection `conn`'s seek out of its pool. True when it was
    /// waiting; false when a pairing took it first (it arrives on the
    /// seeker's channel) or there was none.
    pub async fn cancel(&self, conn: u64) -> bool {
        let (reply, answer) = oneshot::channel();
        if self
            .queue
            .send(LobbyCommand::Cancel(conn, reply))
            .await
            .is_err()
        {
            return false;
        }
        answer.await.unwrap_or(false)
    }

    /// How many wait in each offered pool, and in any other pool that has
    /// anyone waiting.
    #[must_use]
    pub fn counts(&self) -> Counts {
        let waiting = self.counts.lock().map(|c| c.clone()).unwrap_or_default();
        let count = |seek: &SeekOptions| {
            waiting
                .iter()
                .find(|(s, _)| s == seek)
                .map_or(0, |(_, n)| *n)
        };
        let offered = offered();
        let others = waiting
            .iter()
            .filter(|(s, _)| !offered.contains(s))
            .copied();
        let mut all: Counts = offered.iter().map(|seek| (*seek, count(seek))).collect();
        all.extend(others);
        all
    }
}

/// The lobby's actor: takes seeks and cancellations, and pairs each pool
/// when a seek arrives and at every tick.
async fn run(hub: Starter, mut commands: mpsc::Receiver<LobbyCommand>, published: Published) {
    let mut pools: HashMap<SeekOptions, Vec<Waiting>> = HashMap::new();
    let mut challenges = Challenges::default();
    let mut told: HashMap<SeekOptions, usize> = HashMap::new();
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            command = commands.recv() => {
                let Some(command) = command else { break };
                match command {
                    LobbyCommand::Seek(seek, seeker) => {
                        let pool = pools.entry(seek).or_default();
                        pool.retain(|w| !w.seeker.paired.is_closed());
                        tell_seeking(&seeker, seek, pool.len() + 1);
                        pool.push(Waiting { seeker, since: Instant::now() });
                        pair_one(&hub, seek, pool, pool.len() - 1, Instant::now());
                    }
                    LobbyCommand::Cancel(conn, reply) => {
                        let found = pools.values_mut().any(|pool| {
                            let before = pool.len();
                            pool.retain(|w| w.seeker.conn != conn);
                            pool.len() != before
                        });
                        let _ = reply.send(found || challenges.cancel(conn));
                    }
                    LobbyCommand::Challenge(offer, reply) => {
                        let _ = reply.send(challenges.add(*offer));
                    }
                    LobbyCommand::Restore(challenge) => challenges.restore(*challenge),
                    LobbyCommand::Accept(id, seeker, reply) => {
                        let _ = reply.send(challenges.accept(&hub, &id, seeker));
                    }
                    LobbyCommand::Decline(id, player, reply) => {
                        let _ = reply.send(challenges.decline(&id, player));
                    }
                }
            }
            _ = tick.tick() => {
                let now = Instant::now();
                for (seek, pool) in &mut pools {
                    pair(&hub, *seek, pool, now);
                }
                pools.retain(|_, pool| !pool.is_empty());
                tell_counts(&pools, &mut told);
                challenges.tidy(now);
            }
        }
        publish(&pools, &published.counts);
        let listed = Arc::new(challenges.listed());
        if let Ok(mut published) = published.challenges.lock() {
            *published = listed;
        }
    }
}

/// Where the lobby writes what the API reads.
struct Published {
    counts: Arc<Mutex<Counts>>,
    challenges: Arc<Mutex<Arc<Vec<Listed>>>>,
}

/// Writes the pools' sizes where `GET /api/pools` reads them.
fn publish(pools: &HashMap<SeekOptions, Vec<Waiting>>, counts: &Mutex<Counts>) {
    let sizes = pools
        .iter()
        .filter(|(_, pool)| !pool.is_empty())
        .map(|(seek, pool)| (*seek, u32::try_from(pool.len()).unwrap_or(u32::MAX)))
        .collect();
    if let Ok(mut counts) = counts.lock() {
        *counts = sizes;
    }
}

/// Pairs whoever in `pool` can be paired at `now`, longest waiting first,
/// each with the closest rating it or the other accepts; starts each
/// pairing's room.
fn pair(hub: &Starter, seek: SeekOptions, pool: &mut Vec<Waiting>, now: Instant) {
    // Connections that closed while waiting leave first, and seeks that
    // waited their longest end (their connections hear `seekEnded`).
    pool.retain(|w| !w.seeker.paired.is_closed() && now.duration_since(w.since) < MAX_WAIT);
    pool.sort_by_key(|w| w.since);
    let mut i = 0;
    while i < pool.len() {
        if !pair_one(hub, seek, pool, i, now) {
            i += 1;
        }
        // Paired: the next waiter moved up to index i. (A partner is
        // always a later waiter: acceptance is symmetric, and each earlier
        // one had no match, this one included, when it was looked at.)
    }
}

/// Pairs waiter `i` of `pool` with its best partner at `now`, if any;
/// says whether it did.
fn pair_one(
    hub: &Starter,
    seek: SeekOptions,
    pool: &mut Vec<Waiting>,
    i: usize,
    now: Instant,
) -> bool {
    let me = &pool[i];
    let best = pool
        .iter()
        .enumerate()
        .filter(|(j, other)| *j != i && other.seeker.who() != me.seeker.who())
        .map(|(j, other)| {
            let gap = (other.seeker.rating.rating - me.seeker.rating.rating).abs();
            (j, gap, gap <= me.range(now).max(other.range(now)))
        })
        .filter(|(_, _, accepted)| *accepted)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(j, _, _)| j);
    let Some(j) = best else {
        return false;
    };
    let (high, low) = (i.max(j), i.min(j));
    let high = pool.remove(high);
    let low = pool.remove(low);
    tokio::spawn(start_game(hub.clone(), seek, low.seeker, high.seeker));
    true
}

/// Makes the room of a pairing: X (see [`x_first`]) creates it, O takes the
/// other seat; each hears of its place, or of the failure.
async fn start_game(Starter { hub, lobby }: Starter, seek: SeekOptions, a: Seeker, b: Seeker) {
    // One of the two left (closed, or cancelled) while the pairing was on
    // its way: the other waits on, as it was.
    match (a.paired.is_closed(), b.paired.is_closed()) {
        (false, false) => {}
        (true, true) => return,
        (true, false) => {
            back_to_the_pool(&lobby, seek, b);
            return;
        }
        (false, true) => {
            back_to_the_pool(&lobby, seek, a);
            return;
        }
    }
    let (x, o) = if x_first(&a, &b) { (a, b) } else { (b, a) };
    let options = RoomOptions {
        days: seek.days,
        kind: seek.kind,
        rules: seek.rules,
        colour: ColourChoice::X,
        clock: seek.clock,
        rated: seek.rated,
    };
    seat_both(&hub, options, x, o).await;
}

/// Makes a room of `options` (its creator playing X) with `x` and `o`
/// seated; each hears of its place, or of the failure.
pub(crate) async fn seat_both(hub: &Arc<Hub>, options: RoomOptions, x: Seeker, o: Seeker) {
    let created = hub
        .open_room(x.conn, options, x.player.clone(), x.out.clone())
        .await;
    let x_member = match created {
        Ok(member) => member,
        Err(refusal) => {
            let _ = o.paired.send(Err(refusal.to_message()));
            let _ = x.paired.send(Err(refusal.to_message()));
            return;
        }
    };
    let joined = hub
        .join(
            o.conn,
            &x_member.room,
            None,
            o.player.clone(),
            o.out.clone(),
        )
        .await;
    match joined {
        Ok((o_member, _)) => {
            // A seat whose connection went meanwhile is left at once, so
            // the other player hears it is empty-handed (the absent-player
            // rule ends the game; fewer than two moves each: not rated).
            for (member, seeker) in [(o_member, o), (x_member, x)] {
                let queue = member.queue.clone();
                if seeker.paired.send(Ok(member)).is_err() {
                    let _ = queue.send(Command::Gone { conn: seeker.conn }).await;
                }
            }
        }
        Err(refusal) => {
            // X stays nowhere: the room forgets its connection.
            let _ = x_member.queue.send(Command::Gone { conn: x.conn }).await;
            let _ = x.paired.send(Err(refusal.to_message()));
            let _ = o.paired.send(Err(refusal.to_message()));
        }
    }
}

/// Where a pairing's room is made: the rooms, and the lobby itself (a
/// seeker whose partner left goes back to its pool).
#[derive(Clone)]
pub(crate) struct Starter {
    pub(crate) hub: Arc<Hub>,
    pub(crate) lobby: mpsc::WeakSender<LobbyCommand>,
}

/// Puts `seeker` back in the pool of `seek` (its wait starts again).
fn back_to_the_pool(lobby: &mpsc::WeakSender<LobbyCommand>, seek: SeekOptions, seeker: Seeker) {
    if let Some(lobby) = lobby.upgrade() {
        let _ = lobby.try_send(LobbyCommand::Seek(seek, seeker));
    }
}

/// Whether `a` plays X against `b`: the one who had O more often lately,
/// else a coin.
pub(crate) fn x_first(a: &Seeker, b: &Seeker) -> bool {
    match a.colour_balance.cmp(&b.colour_balance) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal => crate::hub::coin(),
    }
}

/// Tells a waiter that it waits, and with how many.
fn tell_seeking(seeker: &Seeker, seek: SeekOptions, waiting: usize) {
    let rating = seeker.rating;
    // Ratings stay within a few thousand points.
    #[allow(clippy::cast_possible_truncation)]
    let frame = write(&ServerMessage::Seeking {
        seek,
        waiting: u32::try_from(waiting).unwrap_or(u32::MAX),
        rating: rating.rating.round() as i32,
        provisional: rating.provisional(),
    });
    let _ = seeker.out.try_send(frame.into());
}

/// Tells the waiters of each pool whose size changed since the last tick.
fn tell_counts(pools: &HashMap<SeekOptions, Vec<Waiting>>, told: &mut HashMap<SeekOptions, usize>) {
    told.retain(|seek, _| pools.contains_key(seek));
    for (seek, pool) in pools {
        if told.get(seek) == Some(&pool.len()) {
            continue;
        }
        told.insert(*seek, pool.len());
        for waiting in pool {
            tell_seeking(&waiting.seeker, *seek, pool.len());
        }
    }
}
