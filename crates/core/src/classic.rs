//! The Classic position: one 3x3 board.

use crate::game::{Game, GameKind};
use crate::lines::{has_line, line_in, FULL, LINES};
use crate::notation::ParseError;
use crate::zobrist::{O_TO_MOVE, PIECE};
use crate::{BoardStatus, IllegalMove, MoveList, Outcome, Player, Rules};

/// A move in Classic: a cell 0-8 in reading order (0 top-left, 8 bottom-right).
///
/// May hold an out-of-range number from user input; [`Game::check`] refuses
/// it with [`IllegalMove::OutOfRange`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClassicMove(pub u8);

/// A position of Classic tic-tac-toe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Classic {
    /// Per player: a 9-bit mask of the cells they hold.
    cells: [u16; 2],
    ply: u8,
    /// The last cell played, or `u8::MAX`.
    last: u8,
    outcome: Option<Outcome>,
    hash: u64,
}

impl Classic {
    /// The empty board with X to move.
    #[must_use]
    pub const fn new() -> Classic {
        Classic {
            cells: [0; 2],
            ply: 0,
            last: u8::MAX,
            outcome: None,
            hash: 0,
        }
    }

    /// Builds a position from its pieces, deriving the rest. The caller has
    /// checked the piece counts.
    pub(crate) fn from_cells(cells: [u16; 2]) -> Classic {
        let mut pos = Classic::new();
        pos.cells = cells;
        pos.ply = (cells[0].count_ones() + cells[1].count_ones()) as u8;
        pos.outcome = if has_line(cells[0]) {
            Some(Outcome::Win(Player::X))
        } else if has_line(cells[1]) {
            Some(Outcome::Win(Player::O))
        } else if cells[0] | cells[1] == FULL {
            Some(Outcome::Draw)
        } else {
            None
        };
        pos.hash = pos.recompute_hash();
        pos
    }

    /// Who holds `cell`, if anyone. Out-of-range cells read as empty.
    #[must_use]
    pub fn cell(&self, cell: u8) -> Option<Player> {
        if cell > 8 {
            None
        } else if self.cells[0] & (1 << cell) != 0 {
            Some(Player::X)
        } else if self.cells[1] & (1 << cell) != 0 {
            Some(Player::O)
        } else {
            None
        }
    }

    /// A 9-bit mask of the cells `player` holds.
    #[must_use]
    pub const fn cells(&self, player: Player) -> u16 {
        self.cells[player.index()]
    }

    /// The board as one [`BoardStatus`].
    #[must_use]
    pub fn status(&self) -> BoardStatus {
        match self.outcome {
            None => BoardStatus::Open,
            Some(Outcome::Win(p)) => BoardStatus::Won(p),
            Some(Outcome::Draw) => BoardStatus::Drawn,
        }
    }

    /// The three cells of the winning line, once the game is won.
    #[must_use]
    pub fn winning_line(&self) -> Option<[u8; 3]> {
        let p = self.outcome?.winner()?;
        line_in(self.cells[p.index()]).map(|l| LINES[l])
    }

    /// The hash computed from scratch; equals [`Game::hash`].
    #[must_use]
    pub fn recompute_hash(&self) -> u64 {
        let mut h = if self.ply & 1 == 1 { O_TO_MOVE } else { 0 };
        for p in 0..2 {
            for c in 0..9 {
                if self.cells[p] & (1 << c) != 0 {
                    h ^= PIECE[p * 81 + c];
                }
            }
        }
        h
    }

    fn empty(&self) -> u16 {
        !(self.cells[0] | self.cells[1]) & FULL
    }
}

impl Game for Classic {
    type Move = ClassicMove;
    const KIND: GameKind = GameKind::Classic;
    const MAX_PLIES: usize = 9;

    fn start(_rules: Rules) -> Self {
        Classic::new()
    }

    fn rules(&self) -> Rules {
        Rules::Standard
    }

    fn move_code(m: ClassicMove) -> u8 {
        m.0
    }

    fn move_from_code(code: u8) -> ClassicMove {
        ClassicMove(code)
    }

    fn move_at(board: u8, cell: u8) -> Option<ClassicMove> {
        (board == 0 && cell < 9).then_some(ClassicMove(cell))
    }

    fn board_and_cell(m: ClassicMove) -> (u8, u8) {
        (0, m.0)
    }

    fn parse_move(text: &str) -> Result<ClassicMove, ParseError> {
        crate::notation::parse_classic_move(text)
    }

    fn side_to_move(&self) -> Player {
        if self.ply & 1 == 0 {
            Player::X
        } else {
            Player::O
        }
    }

    fn ply(&self) -> usize {
        usize::from(self.ply)
    }

    fn last_move(&self) -> Option<ClassicMove> {
        (self.last != u8::MAX).then_some(ClassicMove(self.last))
    }

    fn legal_moves(&self) -> MoveList<ClassicMove> {
        let mut list = MoveList::new();
        if self.outcome.is_none() {
            let mut empty = self.empty();
            while empty != 0 {
                list.push(ClassicMove(empty.trailing_zeros() as u8));
                empty &= empty - 1;
            }
        }
        list
    }

    fn legal_move_count(&self) -> u32 {
        if self.outcome.is_some() {
            0
        } else {
            crate::lines::cell_count(self.empty())
        }
    }

    fn check(&self, m: ClassicMove) -> Result<(), IllegalMove> {
        if self.outcome.is_some() {
            Err(IllegalMove::GameOver)
        } else if m.0 > 8 {
            Err(IllegalMove::OutOfRange)
        } else if self.empty() & (1 << m.0) == 0 {
            Err(IllegalMove::CellTaken)
        } else {
            Ok(())
        }
    }

    fn play_unchecked(&mut self, m: ClassicMove) {
        let p = usize::from(self.ply & 1);
        self.cells[p] |= 1 << m.0;
        self.hash ^= PIECE[p * 81 + usize::from(m.0)] ^ O_TO_MOVE;
        self.ply += 1;
        self.last = m.0;
        if has_line(self.cells[p]) {
            self.outcome = Some(Outcome::Win(if p == 0 { Player::X } else { Player::O }));
        } else if self.empty() == 0 {
            self.outcome = Some(Outcome::Draw);
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn hash(&self) -> u64 {
        self.hash
    }
}
