//! The game's variations as the page sees them: the shown line (a
//! [`History`], which every rule and view reads) kept inside the tree of
//! every line played or read (core's [`GameTree`]), and the tree listed in
//! its record's order for the move list.

use serde::Serialize;
use tsify::Tsify;
use uttt_core::tree::{AnyTree, GameTree, NodeId, Step, TreeError, VisitLines, VisitLinesMut};
use uttt_core::{AnyGame, Game, History};

use crate::error::{ApiError, ErrorCode};

/// One entry of the tree in its record's order: a move, or the bracket
/// that opens or closes a side line. Crosses in camelCase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Tsify)]
#[tsify(missing_as_null)]
#[serde(rename_all = "camelCase")]
pub struct TreeItem {
    /// `move`, `open` or `close`.
    pub kind: &'static str,
    /// The position the move leads to (0 for a bracket): what `jumpTo`,
    /// `promote` and `deleteLine` take. An edit renumbers the ids.
    pub id: u32,
    /// Moves from the start to the position (0 for a bracket).
    pub ply: u32,
    /// The move in notation (empty for a bracket).
    pub notation: String,
    /// Whether the move is on the shown line.
    pub shown: bool,
    /// Whether the move is on the main line.
    pub main: bool,
    /// Whether the move starts a side line: another was played first there.
    pub branch: bool,
}

fn id_number(id: NodeId) -> u32 {
    u32::try_from(id.index()).unwrap_or(u32::MAX)
}

/// Puts every move of `line` in `tree` (the moves already there followed).
///
/// # Errors
/// `too-many-moves` when the tree is full; it is then unchanged.
pub fn store(tree: &mut AnyTree, line: &mut AnyGame) -> Result<(), ApiError> {
    tree.visit_mut(line, Store).unwrap_or(Ok(()))
}

struct Store;
impl VisitLinesMut for Store {
    type Output = Result<(), ApiError>;
    fn visit<G: Game>(self, tree: &mut GameTree<G>, line: &mut History<G>) -> Self::Output {
        tree.add_history(line).map(|_| ()).map_err(refusal)
    }
}

fn refusal(e: TreeError) -> ApiError {
    match e {
        TreeError::Illegal(reason) => reason.into(),
        _ => ApiError::new(ErrorCode::TooManyMoves, e.to_string()),
    }
}

/// The ids of the position at the line's cursor and of the line's last one.
pub fn line_nodes(tree: &AnyTree, line: &AnyGame) -> (u32, u32) {
    tree.visit(line, LineNodes).unwrap_or((0, 0))
}

struct LineNodes;
impl VisitLines for LineNodes {
    type Output = (u32, u32);
    fn visit<G: Game>(self, tree: &GameTree<G>, line: &History<G>) -> (u32, u32) {
        let (cursor, end) = nodes_of(tree, line);
        (id_number(cursor), id_number(end))
    }
}

fn nodes_of<G: Game>(tree: &GameTree<G>, line: &History<G>) -> (NodeId, NodeId) {
    let moves = line.moves();
    let find = |m: &[G::Move]| tree.find(m).unwrap_or(NodeId::ROOT);
    (find(&moves[..line.cursor()]), find(moves))
}

/// The id of the position `line`'s moves reach in `tree`, if it has them all.
pub fn find(tree: &AnyTree, line: &AnyGame) -> Option<u32> {
    tree.visit(line, Find).flatten()
}

struct Find;
impl VisitLines for Find {
    type Output = Option<u32>;
    fn visit<G: Game>(self, tree: &GameTree<G>, line: &History<G>) -> Option<u32> {
        tree.find(line.moves()).map(id_number)
    }
}

/// The tree in its record's order, each move marked if on the shown line.
pub fn items(tree: &AnyTree, line: &AnyGame) -> Vec<TreeItem> {
    tree.visit(line, Items).unwrap_or_default()
}

struct Items;
impl VisitLines for Items {
    type Output = Vec<TreeItem>;
    fn visit<G: Game>(self, tree: &GameTree<G>, line: &History<G>) -> Vec<TreeItem> {
        items_of(tree, line)
    }
}

fn items_of<G: Game>(tree: &GameTree<G>, line: &History<G>) -> Vec<TreeItem> {
    let shown = tree.path(nodes_of(tree, line).1);
    let mut items = Vec::with_capacity(tree.len() + 2);
    let bracket = |kind| TreeItem {
        kind,
        id: 0,
        ply: 0,
        notation: String::new(),
        shown: false,
        main: false,
        branch: false,
    };
    // The main line is the root's first-child chain: a move is on it while
    // no bracket is open around it.
    let mut open = 0_usize;
    tree.walk(|step| match step {
        Step::Move(n) => items.push(TreeItem {
            kind: "move",
            id: id_number(n),
            ply: u32::try_from(tree.depth(n)).unwrap_or(u32::MAX),
            notation: tree.move_to(n).map(|m| m.to_string()).unwrap_or_default(),
            shown: shown.contains(&n),
            main: open == 0,
            branch: tree
                .parent(n)
                .is_some_and(|p| tree.children(p).first() != Some(&n)),
        }),
        Step::Open => {
            open += 1;
            items.push(bracket("open"));
        }
        Step::Close => {
            open -= 1;
            items.push(bracket("close"));
        }
    });
    items
}

/// The line through position `id` (its moves, then the main continuation
/// after it), its cursor at `id`; none for an unknown id.
pub fn line_through(tree: &AnyTree, id: u32) -> Option<AnyGame> {
    tree.history_at(NodeId::from_index(usize::try_from(id).ok()?)?)
}

/// Makes the line through `id` the main line; false for the start or an unknown id.
pub fn promote(tree: &mut AnyTree, id: u32) -> bool {
    let Some(id) = usize::try_from(id).ok().and_then(NodeId::from_index) else {
        return false;
    };
    tree.promote(id)
}

/// Deletes the move to `id` and all after it. If the shown line went
/// through it, the line becomes the one through the position before, its
/// cursor no further on than it was. False (nothing changes) for the start
/// or an unknown id.
pub fn delete(tree: &mut AnyTree, line: &mut AnyGame, id: u32) -> bool {
    let Some(id) = usize::try_from(id).ok().and_then(NodeId::from_index) else {
        return false;
    };
    tree.visit_mut(line, Delete(id)).unwrap_or(false)
}

struct Delete(NodeId);
impl VisitLinesMut for Delete {
    type Output = bool;
    fn visit<G: Game>(self, tree: &mut GameTree<G>, line: &mut History<G>) -> bool {
        delete_in(tree, line, self.0)
    }
}

fn delete_in<G: Game>(tree: &mut GameTree<G>, line: &mut History<G>, id: NodeId) -> bool {
    if tree.parent(id).is_none() {
        return false;
    }
    let depth = tree.depth(id);
    let through = tree.path(nodes_of(tree, line).1).contains(&id);
    let before: Vec<G::Move> = line.moves()[..depth.min(line.len())].to_vec();
    if !tree.delete(id) {
        return false;
    }
    if through {
        let cursor = line.cursor();
        let parent = tree.find(&before[..depth - 1]).unwrap_or(NodeId::ROOT);
        if let Some(h) = tree.history_at(parent) {
            *line = h;
            line.jump(cursor.min(depth - 1));
        }
    }
    true
}
