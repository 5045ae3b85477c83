//! What a rated game does to its players' ratings, as the room's state
//! shows it: before the game, the change a win, a draw and a loss would
//! make; after it, the ratings the archive gave (`archive.rs`).

use std::time::Duration;

use rusqlite::{params, OptionalExtension};
use uttt_protocol::{SideStakes, Stakes};

use crate::archive::rating_of;
use crate::clock::epoch_ms;
use crate::rating::{self, Perf, Rating};
use crate::room::Room;
use crate::store::Store;

/// How long a room waits for the ratings: past it, the state goes out
/// without them (a slow store never holds a game up).
const WAIT: Duration = Duration::from_secs(1);

/// Keeps `room.stakes` true to its game after a change: dropped when a new
/// game began (a rematch: colours and ratings moved), read when a player
/// took a seat (`seated`) or a new game began and the rated game has both
/// players and no stakes yet, completed with the ratings after it once its
/// end (just saved, so archived) was rated. Reads are tried only then, not
/// at every move, so a slow store costs a move at most once.
pub async fn update(
    store: &Store,
    room: &mut Room,
    game_before: u32,
    ended_before: bool,
    seated: bool,
) {
    if !room.options.rated {
        return;
    }
    let new_game = room.game_number != game_before;
    if new_game {
        room.stakes = None;
    }
    let Some([x, o]) = room.players_by_side().map(|p| p.map(|p| p.id)) else {
        return;
    };
    let perf = Perf::of(room.options.kind, room.options.rules, room.options.clock).key();
    if room.stakes.is_none() && room.result.is_none() && (seated || new_game) {
        let read = store.read(move |c| {
            let rating = |player| rating_of(c, player, &perf).map_err(|e| e.to_string());
            Ok([rating(x)?, rating(o)?])
        });
        if let Ok(Ok([x, o])) = tokio::time::timeout(WAIT, read).await {
            room.stakes = Some(of(&x, &o, epoch_ms()));
        }
    } else if room.result.is_some() && !ended_before {
        let Some(mut stakes) = room.stakes else {
            return;
        };
        let (code, game) = (room.code.clone(), room.game_number);
        let read = store.read(move |c| {
            c.query_row(
                "SELECT x_after, o_after FROM games WHERE room = ?1 AND game_number = ?2",
                params![code, game],
                |r| Ok((r.get::<_, Option<f64>>(0)?, r.get::<_, Option<f64>>(1)?)),
            )
            .optional()
            .map_err(|e| e.to_string())
        });
        if let Ok(Ok(Some((x_after, o_after)))) = tokio::time::timeout(WAIT, read).await {
            stakes.x.after = x_after.map(whole);
            stakes.o.after = o_after.map(whole);
            room.stakes = Some(stakes);
        }
    }
}

/// The stakes of a game between `x` and `o` at `now_ms`.
#[must_use]
pub fn of(x: &Rating, o: &Rating, now_ms: u64) -> Stakes {
    let side = |me: &Rating, them: &Rating| {
        let [win, draw, loss] = rating::stakes(me, them, now_ms);
        SideStakes {
            rating: whole(me.rating),
            provisional: me.at(now_ms).provisional(),
            win,
            draw,
            loss,
            after: None,
        }
    };
    Stakes {
        x: side(x, o),
        o: side(o, x),
    }
}

/// A rating in whole points, as shown.
fn whole(rating: f64) -> i32 {
    // Ratings stay within a few thousand points: the rounding fits.
    #[allow(clippy::cast_possible_truncation)]
    let whole = rating.round() as i32;
    whole
}
