//! Conditional moves (docs/protocol.md, "Conditional moves"): in a
//! correspondence game, a player at the opponent's move leaves lines of
//! "if they play this, I answer that", kept by the room for their seat
//! alone; the opponent's move that begins a line is answered at once.
//! Here: the check of the lines a player sends (every move legal from the
//! position, never two answers to one move), and the answer a move finds.

use std::collections::BTreeMap;

use uttt_protocol::{ErrorCode, Point, Refusal, MAX_CONDITIONAL_LINES, MAX_CONDITIONAL_PLIES};

use crate::game::OnlineGame;

/// Conditional lines, each from the opponent's next move.
pub type Lines = Vec<Vec<Point>>;

fn bad(message: impl Into<String>) -> Refusal {
    Refusal::new(ErrorCode::BadConditional, message)
}

/// Whether `lines` may be kept from `game`'s position, the opponent to
/// move: at most `MAX_CONDITIONAL_LINES` lines of 2 to
/// `MAX_CONDITIONAL_PLIES` moves (an even number), each legal in turn, and
/// one answer at most to each position the opponent's move makes.
///
/// # Errors
/// `bad-conditional`, saying what is wrong.
pub fn check(game: &OnlineGame, lines: &[Vec<Point>]) -> Result<(), Refusal> {
    if lines.len() > MAX_CONDITIONAL_LINES {
        return Err(bad(format!("at most {MAX_CONDITIONAL_LINES} lines")));
    }
    let mut answers: BTreeMap<&[Point], Point> = BTreeMap::new();
    for (n, line) in lines.iter().enumerate() {
        if line.len() < 2 || line.len() > MAX_CONDITIONAL_PLIES || line.len() % 2 != 0 {
            return Err(bad(format!(
                "line {}: 2 to {MAX_CONDITIONAL_PLIES} moves, their move then your answer",
                n + 1
            )));
        }
        let mut position = game.clone();
        for (i, point) in line.iter().enumerate() {
            position
                .play(point.board, point.cell)
                .map_err(|e| bad(format!("line {}, move {}: {e}", n + 1, i + 1)))?;
            if i % 2 == 1 {
                let answered = answers.entry(&line[..i]).or_insert(*point);
                if answered != point {
                    return Err(bad(format!(
                        "line {}, move {}: another line answers that move otherwise",
                        n + 1,
                        i + 1
                    )));
                }
            }
        }
    }
    Ok(())
}

/// The answer `lines` give to the opponent's move `played`, if one begins
/// with it, and the lines left after it (from the opponent's next move);
/// the lines that do not begin so are over.
#[must_use]
pub fn answer(lines: Lines, played: Point) -> (Option<Point>, Lines) {
    let mut answer = None;
    let mut left = Vec::new();
    for line in lines {
        if line.first() != Some(&played) || line.len() < 2 {
            continue;
        }
        // Checked when kept: every line beginning so answers alike.
        let reply = *answer.get_or_insert(line[1]);
        if line[1] == reply && line.len() > 2 {
            left.push(line[2..].to_vec());
        }
    }
    (answer, left)
}

#[cfg(test)]
mod tests {
    use uttt_protocol::{Kind, RuleSet};

    use super::*;

    fn p(board: u8, cell: u8) -> Point {
        Point { board, cell }
    }

    fn after(moves: &[(u8, u8)]) -> OnlineGame {
        let mut game = OnlineGame::new(Kind::Ultimate, RuleSet::Standard);
        for &(board, cell) in moves {
            game.play(board, cell).unwrap();
        }
        game
    }

    #[test]
    fn lines_are_checked_from_the_position() {
        // X played e5 (board 4, cell 4); O answers in board 4.
        let game = after(&[(4, 4), (4, 0)]);
        let good = vec![
            vec![p(0, 4), p(4, 8)],
            vec![p(0, 0), p(0, 4), p(4, 1), p(1, 4)],
        ];
        assert!(check(&game, &good).is_ok());
        let refused = |lines: Vec<Vec<Point>>| check(&game, &lines).unwrap_err().code;
        // X must play in board 0: board 5 is not legal.
        assert_eq!(
            refused(vec![vec![p(5, 0), p(0, 1)]]),
            ErrorCode::BadConditional
        );
        assert_eq!(refused(vec![vec![p(0, 4)]]), ErrorCode::BadConditional);
        assert_eq!(
            refused(vec![vec![p(0, 4), p(4, 8), p(8, 0)]]),
            ErrorCode::BadConditional
        );
        assert_eq!(
            refused(vec![vec![p(0, 4), p(4, 8)], vec![p(0, 4), p(4, 7)]]),
            ErrorCode::BadConditional,
            "two answers to one move"
        );
        assert_eq!(
            refused(vec![vec![p(0, 4), p(4, 8)]; 17]),
            ErrorCode::BadConditional
        );
        assert!(check(&game, &[]).is_ok());
    }

    #[test]
    fn a_move_finds_its_answer_and_what_is_left() {
        let lines = vec![
            vec![p(0, 4), p(4, 8), p(8, 0), p(0, 8)],
            vec![p(0, 4), p(4, 8)],
            vec![p(0, 0), p(0, 4)],
        ];
        let (answer, left) = answer(lines.clone(), p(0, 4));
        assert_eq!(answer, Some(p(4, 8)));
        assert_eq!(left, vec![vec![p(8, 0), p(0, 8)]]);
        let (answer, left) = super::answer(lines, p(0, 1));
        assert_eq!((answer, left), (None, Vec::new()));
    }
}
