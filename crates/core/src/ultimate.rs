//! The Ultimate position: nine small boards as bitboards.

use crate::game::{Game, GameKind};
use crate::lines::{has_line, line_in, FULL, LINES};
use crate::notation::ParseError;
use crate::packed::{clear, decrement, field, field_sum, ALL_EMPTY, FIELD_BITS};
use crate::zobrist::{O_TO_MOVE, PIECE, TARGET};
use crate::{BoardStatus, IllegalMove, MoveList, Outcome, Player, Rules};

/// A move in Ultimate: a small board and a cell in it, each 0-8 in reading
/// order (0 top-left, 4 centre, 8 bottom-right).
///
/// A `Move` may hold out-of-range numbers (it is built from user input);
/// [`Game::check`] refuses those with [`IllegalMove::OutOfRange`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The small board, 0-8.
    pub board: u8,
    /// The cell inside the small board, 0-8.
    pub cell: u8,
}

impl Move {
    /// The move at `cell` of small board `board`.
    #[inline]
    #[must_use]
    pub const fn new(board: u8, cell: u8) -> Move {
        Move { board, cell }
    }

    /// The move from its index `board * 9 + cell` (0-80).
    #[inline]
    #[must_use]
    pub const fn from_index(index: u8) -> Move {
        Move {
            board: index / 9,
            cell: index % 9,
        }
    }

    /// `board * 9 + cell`: a dense index 0-80 for tables.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.board as usize * 9 + self.cell as usize
    }

    /// The move at 0-based `row` and `col` of the 9x9 grid (row 0 on top).
    #[must_use]
    pub const fn from_row_col(row: u8, col: u8) -> Move {
        Move {
            board: (row / 3) * 3 + col / 3,
            cell: (row % 3) * 3 + col % 3,
        }
    }

    /// The 0-based row and column of the move on the 9x9 grid.
    #[must_use]
    pub const fn row_col(self) -> (u8, u8) {
        (
            (self.board / 3) * 3 + self.cell / 3,
            (self.board % 3) * 3 + self.cell % 3,
        )
    }

    /// True when both board and cell are in 0-8.
    #[must_use]
    pub const fn in_range(self) -> bool {
        self.board < 9 && self.cell < 9
    }
}

/// "Any open board": the value of `target` on a free move.
const ANY: u8 = 9;
/// `last` before the first move.
const NO_MOVE: u8 = u8::MAX;

/// What `status` holds: the game's result, kept up to date by every move.
const ONGOING: u8 = 0;
const X_WON: u8 = 1;
const O_WON: u8 = 2;
const DRAWN: u8 = 3;

/// A position of Ultimate tic-tac-toe.
///
/// A few dozen bytes, `Copy`: the search copies it to make a move. Every
/// derived fact (decided boards, result, hash, where the next move must go)
/// is updated incrementally by [`Game::play_unchecked`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ultimate {
    /// Per player, per small board: a 9-bit mask of the cells they hold.
    cells: [[u16; 9]; 2],
    /// Per player: a 9-bit mask of the small boards they have won.
    won: [u16; 2],
    /// A 9-bit mask of the small boards that are won or drawn.
    decided: u16,
    /// Per small board, a 7-bit field (see [`crate::packed`]): its number of
    /// empty cells while it is open, 0 once it is decided. The legal move
    /// count is one field, or the sum of all of them on a free move.
    empties: u64,
    /// The board the next move must be in, or `ANY`.
    target: u8,
    /// Moves played so far; X is to move when it is even.
    ply: u8,
    /// The index of the last move, or `NO_MOVE`.
    last: u8,
    /// One of `ONGOING`, `X_WON`, `O_WON`, `DRAWN`.
    status: u8,
    rules: Rules,
    hash: u64,
}

impl Ultimate {
    /// The empty board with X to move anywhere.
    #[must_use]
    pub const fn new(rules: Rules) -> Ultimate {
        Ultimate {
            cells: [[0; 9]; 2],
            won: [0; 2],
            decided: 0,
            empties: ALL_EMPTY,
            target: ANY,
            ply: 0,
            last: NO_MOVE,
            status: ONGOING,
            rules,
            hash: TARGET[ANY as usize],
        }
    }

    /// Builds a position from its pieces and where the next move must go,
    /// deriving everything else. Used by the position-string parser, which
    /// validates the pieces first.
    pub(crate) fn from_cells(rules: Rules, cells: [[u16; 9]; 2], target: Option<u8>) -> Ultimate {
        let mut pos = Ultimate::new(rules);
        pos.cells = cells;
        pos.ply = (0..9)
            .map(|b| cells[0][b].count_ones() + cells[1][b].count_ones())
            .sum::<u32>() as u8;
        for b in 0..9 {
            for (p, side) in cells.iter().enumerate() {
                if has_line(side[b]) {
                    pos.won[p] |= 1 << b;
                    pos.decided |= 1 << b;
                }
            }
            if cells[0][b] | cells[1][b] == FULL {
                pos.decided |= 1 << b;
            }
        }
        pos.empties = 0;
        for b in 0..9 {
            if pos.decided & (1 << b) == 0 {
                pos.empties |=
                    u64::from(pos.empty_cells(b).count_ones()) << (FIELD_BITS as usize * b);
            }
        }
        pos.status = pos.derive_status();
        pos.target = match target {
            Some(b) if pos.status == ONGOING => b,
            _ => ANY,
        };
        pos.hash = pos.recompute_hash();
        pos
    }

    /// The rule set this game is played under.
    #[must_use]
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    /// The board the side to move was sent to, or `None` when they may play in
    /// any open board (or the game is over).
    #[must_use]
    pub const fn required_board(&self) -> Option<u8> {
        if self.target == ANY || self.status != ONGOING {
            None
        } else {
            Some(self.target)
        }
    }

    /// A 9-bit mask of the boards the side to move may play in: one board, or
    /// every open board on a free move; 0 once the game is over.
    #[inline]
    #[must_use]
    pub const fn playable_boards(&self) -> u16 {
        if self.status != ONGOING {
            0
        } else if self.target == ANY {
            !self.decided & FULL
        } else {
            1 << self.target
        }
    }

    /// Who holds `cell` of small board `board`, if anyone. Out-of-range
    /// indexes read as empty.
    #[must_use]
    pub fn cell(&self, board: u8, cell: u8) -> Option<Player> {
        if board > 8 || cell > 8 {
            return None;
        }
        let bit = 1 << cell;
        let b = usize::from(board);
        if self.cells[0][b] & bit != 0 {
            Some(Player::X)
        } else if self.cells[1][b] & bit != 0 {
            Some(Player::O)
        } else {
            None
        }
    }

    /// A 9-bit mask of the cells `player` holds in small board `board` (0-8).
    #[inline]
    #[must_use]
    pub const fn board_cells(&self, player: Player, board: u8) -> u16 {
        self.cells[player.index()][board as usize]
    }

    /// A 9-bit mask of the small boards `player` has won.
    #[inline]
    #[must_use]
    pub const fn won_boards(&self, player: Player) -> u16 {
        self.won[player.index()]
    }

    /// A 9-bit mask of the small boards that are won or drawn.
    #[inline]
    #[must_use]
    pub const fn decided_boards(&self) -> u16 {
        self.decided
    }

    /// A 9-bit mask of the small boards that are full with no line.
    #[inline]
    #[must_use]
    pub const fn drawn_boards(&self) -> u16 {
        self.decided & !self.won[0] & !self.won[1]
    }

    /// Whether small board `board` is open, won, or drawn.
    #[must_use]
    pub fn board_status(&self, board: u8) -> BoardStatus {
        if board > 8 {
            return BoardStatus::Open;
        }
        let bit = 1 << board;
        if self.won[0] & bit != 0 {
            BoardStatus::Won(Player::X)
        } else if self.won[1] & bit != 0 {
            BoardStatus::Won(Player::O)
        } else if self.decided & bit != 0 {
            BoardStatus::Drawn
        } else {
            BoardStatus::Open
        }
    }

    /// The three cells of the line that won small board `board`, if it is won.
    #[must_use]
    pub fn board_line(&self, board: u8) -> Option<[u8; 3]> {
        match self.board_status(board) {
            BoardStatus::Won(p) => {
                line_in(self.cells[p.index()][usize::from(board)]).map(|l| LINES[l])
            }
            _ => None,
        }
    }

    /// The three small boards that won the game, if it was won by a line.
    /// `None` while the game goes on, on a draw, and on a tie-break win.
    #[must_use]
    pub fn winning_line(&self) -> Option<[u8; 3]> {
        let p = match self.status {
            X_WON => 0,
            O_WON => 1,
            _ => return None,
        };
        line_in(self.won[p]).map(|l| LINES[l])
    }

    /// The hash computed from scratch; equals [`Game::hash`] in every
    /// reachable position (the tests check that the incremental one agrees).
    #[must_use]
    pub fn recompute_hash(&self) -> u64 {
        let mut h = TARGET[usize::from(self.target)];
        if self.ply & 1 == 1 {
            h ^= O_TO_MOVE;
        }
        for p in 0..2 {
            for b in 0..9 {
                let mut m = self.cells[p][b];
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    h ^= PIECE[p * 81 + b * 9 + c];
                    m &= m - 1;
                }
            }
        }
        h
    }

    /// The result implied by the decided boards, for positions built from
    /// parts. `play_unchecked` keeps `status` itself.
    fn derive_status(&self) -> u8 {
        if has_line(self.won[0]) {
            X_WON
        } else if has_line(self.won[1]) {
            O_WON
        } else if self.decided == FULL {
            self.full_board_status()
        } else {
            ONGOING
        }
    }

    /// The result when every small board is decided and no player has a line.
    fn full_board_status(&self) -> u8 {
        match self.rules {
            Rules::Standard => DRAWN,
            Rules::TieBreak => {
                let x = self.won[0].count_ones();
                let o = self.won[1].count_ones();
                match x.cmp(&o) {
                    core::cmp::Ordering::Greater => X_WON,
                    core::cmp::Ordering::Less => O_WON,
                    core::cmp::Ordering::Equal => DRAWN,
                }
            }
        }
    }

    /// The packed empty-cell counts of the open boards (see [`crate::packed`]).
    #[inline(always)]
    pub(crate) const fn packed_empties(&self) -> u64 {
        self.empties
    }

    /// The empty cells of small board `board`.
    #[inline(always)]
    pub(crate) const fn empty_cells(&self, board: usize) -> u16 {
        !(self.cells[0][board] | self.cells[1][board]) & FULL
    }
}

impl Game for Ultimate {
    type Move = Move;
    const KIND: GameKind = GameKind::Ultimate;
    const MAX_PLIES: usize = 81;

    fn start(rules: Rules) -> Self {
        Ultimate::new(rules)
    }

    fn rules(&self) -> Rules {
        self.rules
    }

    fn move_code(m: Move) -> u8 {
        // A move in range has an index of at most 80.
        m.index() as u8
    }

    fn move_from_code(code: u8) -> Move {
        Move::from_index(code)
    }

    fn move_at(board: u8, cell: u8) -> Option<Move> {
        (board < 9 && cell < 9).then(|| Move::new(board, cell))
    }

    fn board_and_cell(m: Move) -> (u8, u8) {
        (m.board, m.cell)
    }

    fn parse_move(text: &str) -> Result<Move, ParseError> {
        crate::notation::parse_move(text)
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        if self.ply & 1 == 0 {
            Player::X
        } else {
            Player::O
        }
    }

    #[inline]
    fn ply(&self) -> usize {
        usize::from(self.ply)
    }

    fn last_move(&self) -> Option<Move> {
        (self.last != NO_MOVE).then(|| Move::from_index(self.last))
    }

    fn legal_moves(&self) -> MoveList<Move> {
        let mut list = MoveList::new();
        let mut boards = self.playable_boards();
        while boards != 0 {
            let b = boards.trailing_zeros() as u8;
            boards &= boards - 1;
            let mut empty = self.empty_cells(usize::from(b));
            while empty != 0 {
                let c = empty.trailing_zeros() as u8;
                empty &= empty - 1;
                list.push(Move::new(b, c));
            }
        }
        list
    }

    #[inline]
    fn legal_move_count(&self) -> u32 {
        if self.status != ONGOING {
            0
        } else if self.target != ANY {
            field(self.empties, usize::from(self.target))
        } else {
            field_sum(self.empties)
        }
    }

    #[inline]
    fn count_replies(&self) -> u64 {
        crate::bulk::count_replies(self)
    }

    #[inline]
    fn count_three_plies(&self) -> u64 {
        crate::bulk::count_three_plies(self)
    }

    fn check(&self, m: Move) -> Result<(), IllegalMove> {
        if self.status != ONGOING {
            return Err(IllegalMove::GameOver);
        }
        if !m.in_range() {
            return Err(IllegalMove::OutOfRange);
        }
        if self.target != ANY && m.board != self.target {
            return Err(IllegalMove::WrongBoard {
                required: self.target,
            });
        }
        if self.decided & (1 << m.board) != 0 {
            return Err(IllegalMove::BoardDecided);
        }
        if self.empty_cells(usize::from(m.board)) & (1 << m.cell) == 0 {
            return Err(IllegalMove::CellTaken);
        }
        Ok(())
    }

    #[inline]
    fn play_unchecked(&mut self, m: Move) {
        let p = usize::from(self.ply & 1);
        let b = usize::from(m.board);
        let c = m.cell;
        let mine = self.cells[p][b] | (1 << c);
        self.cells[p][b] = mine;
        self.hash ^= PIECE[p * 81 + b * 9 + usize::from(c)] ^ O_TO_MOVE;
        // A full board's field reaches 0 here; a won board's is cleared below.
        self.empties = decrement(self.empties, b);

        if has_line(mine) {
            self.empties = clear(self.empties, b);
            self.won[p] |= 1 << b;
            self.decided |= 1 << b;
            if has_line(self.won[p]) {
                self.status = if p == 0 { X_WON } else { O_WON };
            } else if self.decided == FULL {
                self.status = self.full_board_status();
            }
        } else if mine | self.cells[p ^ 1][b] == FULL {
            self.decided |= 1 << b;
            if self.decided == FULL {
                self.status = self.full_board_status();
            }
        }

        // Once the game is over nobody is sent anywhere: the target is reset
        // so a finished position hashes (and compares) the same however it
        // was reached, including when read back from a position string.
        let target = if self.decided & (1 << c) != 0 || self.status != ONGOING {
            ANY
        } else {
            c
        };
        self.hash ^= TARGET[usize::from(self.target)] ^ TARGET[usize::from(target)];
        self.target = target;
        self.ply += 1;
        self.last = m.board * 9 + c;
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        match self.status {
            X_WON => Some(Outcome::Win(Player::X)),
            O_WON => Some(Outcome::Win(Player::O)),
            DRAWN => Some(Outcome::Draw),
            _ => None,
        }
    }

    #[inline]
    fn is_over(&self) -> bool {
        self.status != ONGOING
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }
}

impl Default for Ultimate {
    fn default() -> Self {
        Ultimate::new(Rules::Standard)
    }
}
