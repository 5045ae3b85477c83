//! A second, deliberately naive implementation of the Ultimate rules:
//! plain arrays, no bitboards, no tables, no incremental state. Everything
//! is recomputed from the grid, straight from the wording of the rules, so
//! that it shares no code or cleverness with the crate it checks.

/// What a cell, a small board or the game holds.
pub const EMPTY: u8 = 0;
pub const X: u8 = 1;
pub const O: u8 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Open,
    Won(u8),
    Drawn,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result {
    Win(u8),
    Draw,
}

#[derive(Clone, Debug)]
pub struct Naive {
    /// `grid[board][cell]`: EMPTY, X or O.
    pub grid: [[u8; 9]; 9],
    /// X or O.
    pub to_move: u8,
    /// The cell of the last move, which names the board the next move is sent to.
    pub sent_to: Option<usize>,
    pub tiebreak: bool,
}

/// The winner of a 3x3 array of marks (in reading order), if any, found by
/// walking rows, columns and diagonals with coordinates.
fn three_in_a_row(a: &[u8; 9]) -> u8 {
    let at = |r: usize, c: usize| a[r * 3 + c];
    for i in 0..3 {
        if at(i, 0) != EMPTY && at(i, 0) == at(i, 1) && at(i, 1) == at(i, 2) {
            return at(i, 0);
        }
        if at(0, i) != EMPTY && at(0, i) == at(1, i) && at(1, i) == at(2, i) {
            return at(0, i);
        }
    }
    if at(1, 1) != EMPTY
        && ((at(0, 0) == at(1, 1) && at(1, 1) == at(2, 2))
            || (at(0, 2) == at(1, 1) && at(1, 1) == at(2, 0)))
    {
        return at(1, 1);
    }
    EMPTY
}

impl Naive {
    pub fn new(tiebreak: bool) -> Naive {
        Naive {
            grid: [[EMPTY; 9]; 9],
            to_move: X,
            sent_to: None,
            tiebreak,
        }
    }

    pub fn status(&self, board: usize) -> Status {
        let w = three_in_a_row(&self.grid[board]);
        if w != EMPTY {
            Status::Won(w)
        } else if self.grid[board].iter().all(|&c| c != EMPTY) {
            Status::Drawn
        } else {
            Status::Open
        }
    }

    pub fn result(&self) -> Option<Result> {
        let mut meta = [EMPTY; 9];
        let mut decided = 0;
        let mut counts = [0; 3];
        for (b, slot) in meta.iter_mut().enumerate() {
            match self.status(b) {
                Status::Won(p) => {
                    *slot = p;
                    counts[usize::from(p)] += 1;
                    decided += 1;
                }
                Status::Drawn => decided += 1,
                Status::Open => {}
            }
        }
        let w = three_in_a_row(&meta);
        if w != EMPTY {
            return Some(Result::Win(w));
        }
        if decided < 9 {
            return None;
        }
        if self.tiebreak && counts[1] > counts[2] {
            Some(Result::Win(X))
        } else if self.tiebreak && counts[2] > counts[1] {
            Some(Result::Win(O))
        } else {
            Some(Result::Draw)
        }
    }

    /// The boards the side to move may play in.
    pub fn playable(&self) -> Vec<usize> {
        if self.result().is_some() {
            return Vec::new();
        }
        if let Some(b) = self.sent_to {
            if self.status(b) == Status::Open {
                return vec![b];
            }
        }
        (0..9).filter(|&b| self.status(b) == Status::Open).collect()
    }

    /// Every legal `(board, cell)`, boards then cells in increasing order.
    pub fn moves(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for b in self.playable() {
            for c in 0..9 {
                if self.grid[b][c] == EMPTY {
                    out.push((b, c));
                }
            }
        }
        out
    }

    pub fn play(&mut self, board: usize, cell: usize) {
        assert!(self.moves().contains(&(board, cell)), "naive: illegal move");
        self.grid[board][cell] = self.to_move;
        self.to_move = if self.to_move == X { O } else { X };
        self.sent_to = Some(cell);
    }

    /// Leaf count `depth` plies ahead; finished games are not extended.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|&(b, c)| {
                let mut next = self.clone();
                next.grid[b][c] = next.to_move;
                next.to_move = if next.to_move == X { O } else { X };
                next.sent_to = Some(c);
                next.perft(depth - 1)
            })
            .sum()
    }
}
