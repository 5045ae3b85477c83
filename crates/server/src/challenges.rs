//! Challenges (`docs/protocol.md`, "Challenges"): a game offered to anyone
//! or to one player by name, waiting while its challenger's connection
//! does, as a Play now seek: closing the connection withdraws it, and it
//! ends after [`MAX_WAIT`]. The lobby's actor owns them (one owner for
//! every wait for a game); accepting one makes its room as a pairing does,
//! both players seated.
//!
//! Each player may have [`MAX_PER_PLAYER`] waiting (one a connection), and
//! all together at most [`MAX_CHALLENGES`]. The ends of recent challenges
//! are remembered, so a late accept hears why it came too late.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Instant;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use uttt_protocol::{ChallengeEnd, ColourChoice, ErrorCode, Refusal, RoomOptions, ServerMessage};

use crate::api;
use crate::app::App;
use crate::clock::epoch_ms;
use crate::hub::{coin, random_code};
use crate::lobby::{seat_both, LobbyCommand, Seeker, Starter, MAX_WAIT};
use crate::rating::{Perf, Rating};

/// Challenges one player may have waiting at once.
pub const MAX_PER_PLAYER: usize = 3;
/// Challenges waiting at once, all players together.
pub const MAX_CHALLENGES: usize = 2000;
/// How many ended challenges are remembered to say why they ended.
const REMEMBERED: usize = 4096;
/// The longest `open` list `GET /api/challenges` gives.
pub const MAX_LISTED: usize = 50;

/// A challenge as asked for, before the lobby gives it an id.
pub struct Offer {
    /// The game; `colour` is the challenger's side.
    pub options: RoomOptions,
    /// The one player who may accept it (id, name); none: anyone.
    pub to: Option<(i64, String)>,
    /// The challenger's connection, signed in, with their rating in the
    /// game's performance.
    pub challenger: Seeker,
}

/// A waiting challenge.
pub struct Challenge {
    id: String,
    offer: Offer,
    since: Instant,
    since_ms: u64,
}

/// A waiting challenge as `GET /api/challenges` lists it.
#[derive(Clone, Debug)]
pub struct Listed {
    /// Its id.
    pub id: String,
    /// The challenger's player id and name.
    pub challenger: (i64, String),
    /// The challenger's rating in the game's performance.
    pub rating: Rating,
    /// The game; `colour` is the challenger's side.
    pub options: RoomOptions,
    /// The addressee (id, name), if any.
    pub to: Option<(i64, String)>,
    /// When it was made, in ms since the Unix epoch.
    pub since_ms: u64,
}

/// How a challenge that is no longer waiting ended.
#[derive(Clone, Copy)]
enum Gone {
    Ended(ChallengeEnd),
    Taken,
}

/// How long an accepted challenge's room may take to be made before the
/// lobby forgets it was under way (making one takes milliseconds).
const STARTING_FORGET: std::time::Duration = std::time::Duration::from_secs(60);

/// The waiting challenges, oldest first, the ends of recent ones, and the
/// accepted ones whose rooms are being made (by their challengers'
/// connections: when, and whether the challenger withdrew meanwhile).
#[derive(Default)]
pub struct Challenges {
    waiting: Vec<Challenge>,
    ended: HashMap<String, Gone>,
    order: VecDeque<String>,
    starting: HashMap<u64, (Instant, bool)>,
}

impl Challenges {
    /// Adds `offer`; its id, or why not.
    pub(crate) fn add(&mut self, offer: Offer) -> Result<String, Refusal> {
        self.drop_closed();
        let who = offer.challenger.who();
        if self
            .waiting
            .iter()
            .filter(|c| c.offer.challenger.who() == who)
            .count()
            >= MAX_PER_PLAYER
        {
            return Err(Refusal::new(
                ErrorCode::TooManyChallenges,
                format!("at most {MAX_PER_PLAYER} challenges of one player wait at once"),
            ));
        }
        if self.waiting.len() >= MAX_CHALLENGES {
            return Err(Refusal::new(
                ErrorCode::ServerFull,
                "too many challenges are waiting; try again soon",
            ));
        }
        let id = random_code(10)?;
        self.waiting.push(Challenge {
            id: id.clone(),
            offer,
            since: Instant::now(),
            since_ms: epoch_ms(),
        });
        Ok(id)
    }

    /// Withdraws connection `conn`'s challenge; whether there was one. One
    /// accepted whose room is being made is not withdrawn (its `joined`
    /// follows), unless the room is not made: then it ends, withdrawn,
    /// rather than wait again (see `restore`).
    pub(crate) fn cancel(&mut self, conn: u64) -> bool {
        match self
            .waiting
            .iter()
            .position(|c| c.offer.challenger.conn == conn)
        {
            Some(i) => {
                let gone = self.waiting.remove(i);
                self.remember(gone.id, Gone::Ended(ChallengeEnd::Withdrawn));
                true
            }
            None => {
                if let Some((_, withdrawn)) = self.starting.get_mut(&conn) {
                    *withdrawn = true;
                }
                false
            }
        }
    }

    /// Puts back a challenge whose accepter left before its room was made;
    /// one its challenger withdrew meanwhile ends, and they hear so.
    pub(crate) fn restore(&mut self, challenge: Challenge) {
        self.order.retain(|id| *id != challenge.id);
        self.ended.remove(&challenge.id);
        let conn = challenge.offer.challenger.conn;
        if let Some((_, true)) = self.starting.remove(&conn) {
            end(
                challenge.offer.challenger,
                &challenge.id,
                ChallengeEnd::Withdrawn,
            );
            self.remember(challenge.id, Gone::Ended(ChallengeEnd::Withdrawn));
            return;
        }
        let at = self.waiting.partition_point(|c| c.since <= challenge.since);
        self.waiting.insert(at, challenge);
    }

    /// Accepts challenge `id` for `accepter`: checks who may, takes it out
    /// and starts its room (the two hear of it on their channels).
    pub(crate) fn accept(
        &mut self,
        starter: &Starter,
        id: &str,
        accepter: Seeker,
    ) -> Result<(), Refusal> {
        let i = self.find(id)?;
        let challenge = &self.waiting[i];
        if challenge.offer.challenger.who() == accepter.who() {
            return Err(Refusal::new(
                ErrorCode::OwnChallenge,
                "this is your own challenge",
            ));
        }
        if let Some((to, name)) = &challenge.offer.to {
            if accepter.player.as_ref().map(|p| p.id) != Some(*to) {
                return Err(Refusal::new(
                    ErrorCode::NotForYou,
                    format!("this challenge is for {name}"),
                ));
            }
        }
        let challenge = self.waiting.remove(i);
        self.remember(challenge.id.clone(), Gone::Taken);
        self.starting
            .insert(challenge.offer.challenger.conn, (Instant::now(), false));
        tokio::spawn(start(starter.clone(), challenge, accepter));
        Ok(())
    }

    /// Declines challenge `id` for its addressee `player`; its challenger
    /// hears `challengeEnded`.
    pub(crate) fn decline(&mut self, id: &str, player: i64) -> Result<(), Refusal> {
        let i = self.find(id)?;
        if self.waiting[i].offer.to.as_ref().map(|(to, _)| *to) != Some(player) {
            return Err(Refusal::new(
                ErrorCode::NotForYou,
                "only a challenge addressed to you can be declined",
            ));
        }
        let challenge = self.waiting.remove(i);
        end(
            challenge.offer.challenger,
            &challenge.id,
            ChallengeEnd::Declined,
        );
        self.remember(challenge.id, Gone::Ended(ChallengeEnd::Declined));
        Ok(())
    }

    /// Drops challenges whose connections closed, and ends those that
    /// waited their longest (their challengers hear `challengeEnded`).
    pub(crate) fn tidy(&mut self, now: Instant) {
        self.drop_closed();
        self.starting
            .retain(|_, (at, _)| now.duration_since(*at) < STARTING_FORGET);
        while self
            .waiting
            .first()
            .is_some_and(|c| now.duration_since(c.since) >= MAX_WAIT)
        {
            let challenge = self.waiting.remove(0);
            end(
                challenge.offer.challenger,
                &challenge.id,
                ChallengeEnd::Expired,
            );
            self.remember(challenge.id, Gone::Ended(ChallengeEnd::Expired));
        }
    }

    /// The waiting challenges, oldest first.
    pub(crate) fn listed(&self) -> Vec<Listed> {
        self.waiting
            .iter()
            .filter_map(|c| {
                let player = c.offer.challenger.player.as_ref()?;
                Some(Listed {
                    id: c.id.clone(),
                    challenger: (player.id, player.name.clone()),
                    rating: c.offer.challenger.rating,
                    options: c.offer.options,
                    to: c.offer.to.clone(),
                    since_ms: c.since_ms,
                })
            })
            .collect()
    }

    /// The index of waiting challenge `id`, or why there is none.
    fn find(&mut self, id: &str) -> Result<usize, Refusal> {
        self.drop_closed();
        if let Some(i) = self.waiting.iter().position(|c| c.id == id) {
            return Ok(i);
        }
        Err(match self.ended.get(id) {
            None => Refusal::new(ErrorCode::NoSuchChallenge, "no challenge has that id"),
            Some(Gone::Taken) => Refusal::new(
                ErrorCode::ChallengeTaken,
                "another player accepted this challenge first",
            ),
            Some(Gone::Ended(ChallengeEnd::Withdrawn)) => Refusal::new(
                ErrorCode::ChallengeWithdrawn,
                "the challenger withdrew this challenge",
            ),
            Some(Gone::Ended(ChallengeEnd::Expired)) => Refusal::new(
                ErrorCode::ChallengeExpired,
                "this challenge waited its longest and ended",
            ),
            Some(Gone::Ended(ChallengeEnd::Declined)) => {
                Refusal::new(ErrorCode::ChallengeDeclined, "this challenge was declined")
            }
        })
    }

    /// Challenges whose challenger's connection closed are withdrawn.
    fn drop_closed(&mut self) {
        let (closed, open): (Vec<_>, Vec<_>) = std::mem::take(&mut self.waiting)
            .into_iter()
            .partition(|c| c.offer.challenger.paired.is_closed());
        self.waiting = open;
        for challenge in closed {
            self.remember(challenge.id, Gone::Ended(ChallengeEnd::Withdrawn));
        }
    }

    fn remember(&mut self, id: String, gone: Gone) {
        if self.ended.insert(id.clone(), gone).is_none() {
            self.order.push_back(id);
        }
        while self.order.len() > REMEMBERED {
            if let Some(old) = self.order.pop_front() {
                self.ended.remove(&old);
            }
        }
    }
}

/// Tells `challenger` their challenge `id` ended for `reason`.
fn end(challenger: Seeker, id: &str, reason: ChallengeEnd) {
    let _ = challenger.paired.send(Err(ServerMessage::ChallengeEnded {
        id: id.to_string(),
        reason,
    }));
}

/// Makes the room of an accepted challenge, the challenger on the side
/// they chose (a coin for `random`).
async fn start(starter: Starter, challenge: Challenge, accepter: Seeker) {
    if challenge.offer.challenger.paired.is_closed() {
        let refusal = Refusal::new(
            ErrorCode::ChallengeWithdrawn,
            "the challenger withdrew this challenge",
        );
        let _ = accepter.paired.send(Err(refusal.to_message()));
        return;
    }
    // The accepter left on the way: the challenge waits on, as it was.
    if accepter.paired.is_closed() {
        if let Some(lobby) = starter.lobby.upgrade() {
            let _ = lobby.try_send(LobbyCommand::Restore(Box::new(challenge)));
        }
        return;
    }
    let mut options = challenge.offer.options;
    let challenger_x = match options.colour {
        ColourChoice::X => true,
        ColourChoice::O => false,
        ColourChoice::Random => coin(),
    };
    options.colour = ColourChoice::X;
    let challenger = challenge.offer.challenger;
    let (x, o) = if challenger_x {
        (challenger, accepter)
    } else {
        (accepter, challenger)
    };
    seat_both(&starter.hub, options, x, o).await;
}

/// `GET /api/challenges`: the open challenges (newest first, at most
/// [`MAX_LISTED`], the asker's own left out), those addressed to the
/// session's player, and the player's own.
pub async fn get_challenges(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    let me = match api::me(&app, &headers).await {
        Ok(me) => me.map(|me| me.id),
        Err(e) => return e.into_response(),
    };
    let all = app.lobby.challenges();
    let newest = || all.iter().rev();
    let open: Vec<_> = newest()
        .filter(|c| c.to.is_none() && Some(c.challenger.0) != me)
        .take(MAX_LISTED)
        .map(view)
        .collect();
    let for_you: Vec<_> = newest()
        .filter(|c| me.is_some() && c.to.as_ref().map(|(id, _)| *id) == me)
        .take(MAX_LISTED)
        .map(view)
        .collect();
    let yours: Vec<_> = newest()
        .filter(|c| Some(c.challenger.0) == me)
        .map(view)
        .collect();
    Json(json!({ "open": open, "forYou": for_you, "yours": yours })).into_response()
}

/// One challenge as the API writes it.
fn view(c: &Listed) -> serde_json::Value {
    let o = c.options;
    // Ratings stay within a few thousand points.
    #[allow(clippy::cast_possible_truncation)]
    let rating = c.rating.rating.round() as i32;
    let mut v = json!({
        "id": c.id,
        "name": c.challenger.1,
        "rating": rating,
        "provisional": c.rating.provisional(),
        "perf": Perf::of(o.kind, o.rules, o.clock).key(),
        "kind": o.kind,
        "rules": o.rules,
        "clock": o.clock,
        "days": o.days,
        "rated": o.rated,
        "side": o.colour,
        "since": c.since_ms,
    });
    if let Some((_, name)) = &c.to {
        v["to"] = json!(name);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lobby::Pairing;
    use crate::players::Player;
    use tokio::sync::{mpsc, oneshot};
    use uttt_protocol::{ClockSetting, Kind, RuleSet};

    /// An open casual challenge of player `id`, and where its end comes.
    fn offer(id: i64) -> (Offer, oneshot::Receiver<Pairing>) {
        let (out, _) = mpsc::channel(1);
        let (paired, pairing) = oneshot::channel();
        let options = RoomOptions {
            days: None,
            kind: Kind::Ultimate,
            rules: RuleSet::Standard,
            colour: ColourChoice::Random,
            clock: Some(ClockSetting {
                initial: 180,
                increment: 2,
            }),
            rated: false,
        };
        let challenger = Seeker {
            conn: u64::try_from(id).unwrap(),
            player: Some(Player {
                id,
                name: format!("p{id}"),
            }),
            rating: Rating::NEW,
            colour_balance: 0,
            out,
            paired,
        };
        let offer = Offer {
            options,
            to: None,
            challenger,
        };
        (offer, pairing)
    }

    #[test]
    fn a_challenge_ends_after_the_longest_wait_and_says_so() {
        let mut challenges = Challenges::default();
        let (first, mut first_end) = offer(1);
        let id = challenges.add(first).unwrap();
        let now = Instant::now();
        challenges.tidy(now + MAX_WAIT / 2);
        assert_eq!(challenges.listed().len(), 1);
        assert!(first_end.try_recv().is_err(), "ended before its time");

        challenges.tidy(now + MAX_WAIT + std::time::Duration::from_secs(1));
        assert!(challenges.listed().is_empty());
        match first_end.try_recv() {
            Ok(Err(ServerMessage::ChallengeEnded { id: ended, reason })) => {
                assert_eq!((ended, reason), (id.clone(), ChallengeEnd::Expired));
            }
            Ok(Ok(_)) => panic!("seated instead of told it expired"),
            Ok(Err(other)) => panic!("told {other:?} instead"),
            Err(e) => panic!("not told it expired: {e}"),
        }
        let refused = challenges.find(&id).unwrap_err();
        assert_eq!(refused.code, ErrorCode::ChallengeExpired);
    }

    /// Takes challenge `id` out as an accept does, its room then being made.
    fn accepted(challenges: &mut Challenges, id: &str) -> Challenge {
        let i = challenges.find(id).unwrap();
        let challenge = challenges.waiting.remove(i);
        challenges.remember(challenge.id.clone(), Gone::Taken);
        challenges
            .starting
            .insert(challenge.offer.challenger.conn, (Instant::now(), false));
        challenge
    }

    #[test]
    fn a_challenge_withdrawn_while_its_room_is_made_never_waits_again() {
        let mut challenges = Challenges::default();
        // The accepter left: the challenge waits again, once, as it was.
        let (kept, _kept_end) = offer(1);
        let id = challenges.add(kept).unwrap();
        let challenge = accepted(&mut challenges, &id);
        challenges.restore(challenge);
        assert_eq!(challenges.listed().len(), 1);
        assert_eq!(challenges.order.iter().filter(|o| **o == id).count(), 0);

        // Withdrawn meanwhile: it ends and its challenger hears so.
        let (withdrawn, mut withdrawn_end) = offer(2);
        let id = challenges.add(withdrawn).unwrap();
        let challenge = accepted(&mut challenges, &id);
        assert!(!challenges.cancel(2), "its joined may still follow");
        challenges.restore(challenge);
        assert_eq!(challenges.listed().len(), 1, "only the first waits");
        match withdrawn_end.try_recv() {
            Ok(Err(ServerMessage::ChallengeEnded { reason, .. })) => {
                assert_eq!(reason, ChallengeEnd::Withdrawn);
            }
            _ => panic!("the challenger was not told"),
        }
        assert_eq!(
            challenges.find(&id).unwrap_err().code,
            ErrorCode::ChallengeWithdrawn
        );
    }

    #[test]
    fn the_ends_remembered_are_bounded() {
        let mut challenges = Challenges::default();
        let mut ends = Vec::new();
        for i in 0..(REMEMBERED + 10) {
            let (o, end) = offer(i64::try_from(i).unwrap() + 1);
            challenges.add(o).unwrap();
            ends.push(end);
            assert!(challenges.cancel(u64::try_from(i).unwrap() + 1));
        }
        assert_eq!(challenges.ended.len(), REMEMBERED);
        assert_eq!(challenges.order.len(), REMEMBERED);
    }
}
