//! Bulk counting for Ultimate perft: the replies to every move (perft 2) and
//! the replies to those (perft 3), counted from the position alone without
//! making any move.
//!
//! What a move changes that matters to the next player's move count is
//! small: whether it wins or fills its board (closing it), whether that ends
//! the game, and which board the reply is sent to. The packed empty-cell
//! counts (see [`crate::packed`]) turn "the replies after each of these
//! moves" into a few table lookups per board. The tests check both counts
//! against playing every move.

use crate::lines::{cell_count, has_line, COMPLETING, FULL};
use crate::packed::{clear, decrement, field, field_sum, FIELD_MASKS};
use crate::{Game, Ultimate};

/// What the number of replies to a player's moves depends on, besides the
/// cells of the board the player moves in.
#[derive(Clone, Copy)]
struct Counts {
    /// The empty-cell count of every open board, 0 for decided ones, packed.
    packed: u64,
    /// The boards that are won or drawn.
    decided: u16,
    /// The boards the player to move has won.
    won: u16,
}

/// The replies left by every move in open board `b`, summed, for a player
/// holding `mine` there, with `empty` the board's empty cells.
#[inline(always)]
fn replies_in(k: Counts, b: usize, mine: u16, empty: u16) -> u32 {
    // A free move's reply count: every empty cell of every open board.
    let free = field_sum(k.packed);
    let here = field(k.packed, b);
    let closed = k.decided | (1 << b);
    let wins = COMPLETING[usize::from(mine)] & empty;
    let quiet = empty & !wins;
    let mut total = 0;
    if here > 1 {
        // Board b stays open: a reply goes to board c with its empty cells
        // (one fewer when c is b itself), or anywhere when board c is
        // decided (decided boards count 0 in the packed sum).
        total += field_sum(k.packed & FIELD_MASKS[usize::from(quiet)])
            + cell_count(quiet & k.decided) * (free - 1)
            - u32::from((quiet >> b) & 1);
    } else if quiet != 0 && closed != FULL {
        // The last cell, no line: board b is drawn; the game goes on unless
        // it was the last open board.
        let c = quiet.trailing_zeros() as usize;
        total += if closed & (1 << c) != 0 {
            free - 1
        } else {
            field(k.packed, c)
        };
    }
    // A move that wins board b ends the game if it makes a line of boards or
    // closes the last open board; otherwise board b leaves the count.
    if wins != 0 && !has_line(k.won | (1 << b)) && closed != FULL {
        total += field_sum(k.packed & FIELD_MASKS[usize::from(wins & !closed)])
            + cell_count(wins & closed) * (free - here);
    }
    total
}

/// Perft 2: the replies after every legal move, summed.
pub(crate) fn count_replies(pos: &Ultimate) -> u64 {
    let me = pos.side_to_move();
    let k = Counts {
        packed: pos.packed_empties(),
        decided: pos.decided_boards(),
        won: pos.won_boards(me),
    };
    // Over when no board is playable.
    let mut boards = pos.playable_boards();
    let mut total = 0;
    while boards != 0 {
        let b = boards.trailing_zeros() as usize;
        boards &= boards - 1;
        total += replies_in(k, b, pos.board_cells(me, b as u8), pos.empty_cells(b));
    }
    u64::from(total)
}

/// Perft 3: [`count_replies`] after every legal move, summed, with the
/// position after each move described by what changed rather than built.
pub(crate) fn count_three_plies(pos: &Ultimate) -> u64 {
    let me = pos.side_to_move();
    let them = me.opponent();
    let packed = pos.packed_empties();
    let decided = pos.decided_boards();
    let my_won = pos.won_boards(me);
    let their_won = pos.won_boards(them);
    let mut boards = pos.playable_boards();
    let mut total = 0;
    while boards != 0 {
        let b = boards.trailing_zeros() as usize;
        boards &= boards - 1;
        let mine = pos.board_cells(me, b as u8);
        let empty = pos.empty_cells(b);
        let mut cells = empty;
        while cells != 0 {
            let c = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            // The position after my move at (b, c).
            let mut after = Counts {
                packed: decrement(packed, b),
                decided,
                won: their_won,
            };
            if has_line(mine | (1 << c)) {
                if has_line(my_won | (1 << b)) {
                    continue;
                }
                after.decided |= 1 << b;
                after.packed = clear(after.packed, b);
            } else if field(after.packed, b) == 0 {
                after.decided |= 1 << b;
            }
            if after.decided == FULL {
                continue;
            }
            // Their cells are unchanged; board b has lost cell c.
            let empty_of = |t: usize| {
                if t == b {
                    empty & !(1 << c)
                } else {
                    pos.empty_cells(t)
                }
            };
            if after.decided & (1 << c) == 0 {
                total += replies_in(after, c, pos.board_cells(them, c as u8), empty_of(c));
            } else {
                let mut open = !after.decided & FULL;
                while open != 0 {
                    let t = open.trailing_zeros() as usize;
                    open &= open - 1;
                    total += replies_in(after, t, pos.board_cells(them, t as u8), empty_of(t));
                }
            }
        }
    }
    u64::from(total)
}
