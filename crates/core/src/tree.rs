//! A game with its variations: every line tried from any position, kept as
//! a tree whose first child at each position is the main line.
//!
//! Playing from an earlier position adds a side line instead of dropping
//! the moves after it; any line can be made the main line or deleted. The
//! tree lives in one arena, numbered in the order its record is written
//! (see [`tree_record_string`]), and is walked with explicit stacks, never
//! by recursion, so no record, however nested, can exhaust the stack. It
//! holds at most [`MAX_NODES`] moves.
//!
//! # Record
//! A record with variations is a record (see [`crate::record`]) where,
//! after any move, `(` moves `)` is a line that plays other moves in its
//! place, and may itself hold variations: `ultimate-standard:e5e4(d5b5)(f5)d2`
//! is the main line e5 e4 d2 with d5 b5 and f5 played instead of e4. Each
//! variation holds at least one move. The same move given twice at one
//! position is one line, so the writer's form is the one canonical record.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::{self, Write};

use crate::notation::{Cursor, ParseError, ParseErrorKind};
use crate::record::{header, read_move, read_record_header, AnyGame};
use crate::{Classic, Game, GameKind, History, IllegalMove, Ultimate};

/// The most moves a tree holds (its root not counted): far beyond a game
/// with every side line a person analyses, and a record of it stays a few
/// kilobytes, small enough for a link and for storage.
pub const MAX_NODES: usize = 2000;

/// A position in a [`GameTree`]: the one its move leads to. Ids are the
/// order of the tree's record, so an edit (a new move, a promotion, a
/// deletion) may renumber the ids after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(u32);

impl NodeId {
    /// The start position, before any move.
    pub const ROOT: NodeId = NodeId(0);

    /// The id's number: 0 for the root, then in the record's order.
    #[must_use]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The id numbered `index` (whether a tree has it is the tree's to say).
    #[must_use]
    pub fn from_index(index: usize) -> Option<NodeId> {
        u32::try_from(index).ok().map(NodeId)
    }
}

/// Why a move could not be added to a tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeError {
    /// The move is illegal in the position.
    Illegal(IllegalMove),
    /// The tree already holds [`MAX_NODES`] moves.
    Full,
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TreeError::Illegal(reason) => write!(f, "{reason}"),
            TreeError::Full => write!(f, "the game holds {MAX_NODES} moves, the most it can"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Node<G: Game> {
    /// The move that led here (the root's is the default move, never read).
    mv: G::Move,
    /// The node before (the root's is itself).
    parent: NodeId,
    /// The moves tried from here, the main line's first.
    children: Vec<NodeId>,
    /// The position after `mv`.
    position: G,
}

/// A game with its variations, and a cursor at the position shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameTree<G: Game> {
    nodes: Vec<Node<G>>,
    cursor: NodeId,
}

/// One step of the record's order (see [`GameTree::walk`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Move(NodeId),
    Open,
    Close,
}

impl<G: Game> GameTree<G> {
    /// A tree with no moves, from `start`.
    #[must_use]
    pub fn new(start: G) -> Self {
        GameTree {
            nodes: vec![Node {
                mv: G::Move::default(),
                parent: NodeId::ROOT,
                children: Vec::new(),
                position: start,
            }],
            cursor: NodeId::ROOT,
        }
    }

    /// Every move of `history` as the main line, the cursor where its cursor is.
    ///
    /// # Errors
    /// [`TreeError::Full`] for a history longer than [`MAX_NODES`] (no game is).
    pub fn from_history(history: &History<G>) -> Result<Self, TreeError> {
        let mut tree = GameTree::new(*history.start());
        let mut at = NodeId::ROOT;
        let mut cursor = NodeId::ROOT;
        for (i, &m) in history.moves().iter().enumerate() {
            at = tree.add_child(at, m)?;
            if i + 1 == history.cursor() {
                cursor = at;
            }
        }
        tree.cursor = cursor;
        Ok(tree)
    }

    fn node(&self, id: NodeId) -> Option<&Node<G>> {
        self.nodes.get(id.index())
    }

    /// How many moves the tree holds, in every line.
    #[must_use]
    pub fn len(&self) -> usize {
        self.nodes.len() - 1
    }

    /// Whether no move has been played.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    /// Whether `id` is a position of this tree.
    #[must_use]
    pub fn contains(&self, id: NodeId) -> bool {
        id.index() < self.nodes.len()
    }

    /// The position shown.
    #[must_use]
    pub fn cursor(&self) -> NodeId {
        self.cursor
    }

    /// The position at the cursor.
    #[must_use]
    pub fn current(&self) -> &G {
        &self.nodes[self.cursor.index()].position
    }

    /// The position at `id`.
    #[must_use]
    pub fn position(&self, id: NodeId) -> Option<&G> {
        self.node(id).map(|n| &n.position)
    }

    /// The move that leads to `id` (none for the root).
    #[must_use]
    pub fn move_to(&self, id: NodeId) -> Option<G::Move> {
        self.node(id).filter(|_| id != NodeId::ROOT).map(|n| n.mv)
    }

    /// The position before `id` (none for the root).
    #[must_use]
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.node(id)
            .filter(|_| id != NodeId::ROOT)
            .map(|n| n.parent)
    }

    /// The moves tried from `id`, the main line's first.
    #[must_use]
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        self.node(id).map_or(&[], |n| &n.children)
    }

    /// How many moves lead from the start to `id`.
    #[must_use]
    pub fn depth(&self, id: NodeId) -> usize {
        let start = self.nodes[0].position.ply();
        self.position(id).map_or(0, |p| p.ply() - start)
    }

    /// The positions from the start to `id`: `id`'s ancestors, oldest
    /// first, then `id` (the root not included).
    #[must_use]
    pub fn path(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = Vec::new();
        let mut at = id;
        while let Some(parent) = self.parent(at) {
            path.push(at);
            at = parent;
        }
        path.reverse();
        path
    }

    /// The line through `id`: its path, then the main continuation after it.
    #[must_use]
    pub fn line(&self, id: NodeId) -> Vec<NodeId> {
        let mut line = self.path(id);
        let mut at = id;
        while let Some(&next) = self.children(at).first() {
            line.push(next);
            at = next;
        }
        line
    }

    /// Whether `id` is on the main line.
    #[must_use]
    pub fn is_main_line(&self, id: NodeId) -> bool {
        self.contains(id)
            && self
                .path(id)
                .iter()
                .all(|&n| self.children(self.nodes[n.index()].parent).first() == Some(&n))
    }

    /// Plays `m` at the cursor: the line it already has if it was played
    /// before, else a new one (the main continuation if the position had
    /// none, a side line otherwise). The cursor moves to it.
    ///
    /// # Errors
    /// An illegal move, or a full tree; nothing changes.
    pub fn play(&mut self, m: G::Move) -> Result<NodeId, TreeError> {
        let node = self.add_child(self.cursor, m)?;
        self.cursor = node;
        self.renumber();
        Ok(self.cursor)
    }

    /// Shows the position `id`; false (and nothing changes) if there is none.
    pub fn jump(&mut self, id: NodeId) -> bool {
        let known = self.contains(id);
        if known {
            self.cursor = id;
        }
        known
    }

    /// Makes the line through `id` the main line: at each position on its
    /// path it becomes the first move, the others keeping their order.
    /// False for the root or an unknown id.
    pub fn promote(&mut self, id: NodeId) -> bool {
        if id == NodeId::ROOT || !self.contains(id) {
            return false;
        }
        for n in self.path(id) {
            let parent = self.nodes[n.index()].parent;
            let children = &mut self.nodes[parent.index()].children;
            if let Some(i) = children.iter().position(|&c| c == n) {
                children[..=i].rotate_right(1);
            }
        }
        self.renumber();
        true
    }

    /// Deletes the move to `id` and every move after it. A cursor inside
    /// goes to the position before `id`. False for the root or an unknown id.
    pub fn delete(&mut self, id: NodeId) -> bool {
        let Some(parent) = self.parent(id) else {
            return false;
        };
        if self.path(self.cursor).contains(&id) {
            self.cursor = parent;
        }
        self.nodes[parent.index()].children.retain(|&c| c != id);
        self.renumber();
        true
    }

    /// The line through the cursor as a history, its cursor at the cursor.
    #[must_use]
    pub fn history(&self) -> History<G> {
        let mut history = self.line_history(self.cursor);
        history.jump(self.depth(self.cursor));
        history
    }

    /// The main line as a history, its cursor at the end.
    #[must_use]
    pub fn main_history(&self) -> History<G> {
        self.line_history(NodeId::ROOT)
    }

    fn line_history(&self, id: NodeId) -> History<G> {
        let mut history = History::new(self.nodes[0].position);
        for n in self.line(id) {
            // Every move of the tree was checked when it was added.
            let _ = history.play(self.nodes[n.index()].mv);
        }
        history
    }

    /// Adds `m` after `parent` (or finds it there), without renumbering.
    fn add_child(&mut self, parent: NodeId, m: G::Move) -> Result<NodeId, TreeError> {
        let known = self.children(parent).iter().copied();
        if let Some(found) = known.into_iter().find(|&c| self.nodes[c.index()].mv == m) {
            return Ok(found);
        }
        let position = self.nodes[parent.index()].position;
        position.check(m).map_err(TreeError::Illegal)?;
        if self.len() >= MAX_NODES {
            return Err(TreeError::Full);
        }
        let mut after = position;
        after.play_unchecked(m);
        let id = NodeId::from_index(self.nodes.len()).ok_or(TreeError::Full)?;
        self.nodes.push(Node {
            mv: m,
            parent,
            children: Vec::new(),
            position: after,
        });
        self.nodes[parent.index()].children.push(id);
        Ok(id)
    }

    /// The record's order: each position's main move, then each other move
    /// there as a bracketed line, then the main move's continuation.
    fn walk(&self, mut visit: impl FnMut(Step)) {
        enum Task {
            Line(NodeId),
            Open(NodeId),
            Close,
        }
        let mut tasks = vec![Task::Line(NodeId::ROOT)];
        while let Some(task) = tasks.pop() {
            match task {
                Task::Line(n) => {
                    let Some((&main, others)) = self.children(n).split_first() else {
                        continue;
                    };
                    visit(Step::Move(main));
                    tasks.push(Task::Line(main));
                    for &other in others.iter().rev() {
                        tasks.push(Task::Close);
                        tasks.push(Task::Line(other));
                        tasks.push(Task::Open(other));
                    }
                }
                Task::Open(n) => {
                    visit(Step::Open);
                    visit(Step::Move(n));
                }
                Task::Close => visit(Step::Close),
            }
        }
    }

    /// Numbers the nodes in the record's order and drops those no longer
    /// reached (a deleted line), so equal trees are equal values.
    fn renumber(&mut self) {
        let mut order = vec![NodeId::ROOT];
        self.walk(|step| {
            if let Step::Move(n) = step {
                order.push(n);
            }
        });
        let mut new_id = vec![None; self.nodes.len()];
        for (i, &old) in order.iter().enumerate() {
            new_id[old.index()] = NodeId::from_index(i);
        }
        let id = |old: NodeId| new_id[old.index()].unwrap_or(NodeId::ROOT);
        let nodes = order
            .iter()
            .map(|&old| {
                let node = &self.nodes[old.index()];
                Node {
                    mv: node.mv,
                    parent: id(node.parent),
                    children: node.children.iter().map(|&c| id(c)).collect(),
                    position: node.position,
                }
            })
            .collect();
        self.cursor = id(self.cursor);
        self.nodes = nodes;
    }
}

/// A tree of either game, as read from a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyTree {
    /// An Ultimate game.
    Ultimate(GameTree<Ultimate>),
    /// A Classic game.
    Classic(GameTree<Classic>),
}

impl AnyTree {
    /// The main line, its cursor at the end.
    #[must_use]
    pub fn main_line(&self) -> AnyGame {
        match self {
            AnyTree::Ultimate(t) => AnyGame::Ultimate(t.main_history()),
            AnyTree::Classic(t) => AnyGame::Classic(t.main_history()),
        }
    }
}

/// Writes the record of every line of `tree` (see the module's doc), from
/// the empty board; a plain record when it has no side lines.
#[must_use]
pub fn tree_record_string<G: Game>(tree: &GameTree<G>) -> String {
    let mut out = String::from(header(G::KIND, tree.nodes[0].position.rules()));
    out.push(':');
    tree.walk(|step| match step {
        Step::Move(n) => {
            let _ = write!(out, "{}", tree.nodes[n.index()].mv);
        }
        Step::Open => out.push('('),
        Step::Close => out.push(')'),
    });
    out
}

/// Reads a record with or without variations, checking every move; the
/// cursor is at the main line's end.
///
/// # Errors
/// Where the record went wrong: a bad header, a malformed or illegal move
/// (with its index in its line), a variation with no move before it or
/// none in it, an unmatched bracket, or more than [`MAX_NODES`] moves.
pub fn parse_tree_record(text: &str) -> Result<AnyTree, ParseError> {
    let mut cur = Cursor::new(text);
    let (kind, rules) = read_record_header(&mut cur, text)?;
    match kind {
        GameKind::Ultimate => {
            read_tree(&mut cur, text, Ultimate::new(rules)).map(AnyTree::Ultimate)
        }
        GameKind::Classic => read_tree(&mut cur, text, Classic::new()).map(AnyTree::Classic),
    }
}

fn read_tree<G: Game>(
    cur: &mut Cursor<'_>,
    text: &str,
    start: G,
) -> Result<GameTree<G>, ParseError> {
    let mut tree = GameTree::new(start);
    // Where the next move goes, and where the last move read was played
    // (a variation plays instead of it); per open bracket, the same pair to
    // go back to and the bracket's offset.
    let mut at = NodeId::ROOT;
    let mut last_from: Option<NodeId> = None;
    let mut open: Vec<(NodeId, Option<NodeId>, usize)> = Vec::new();
    loop {
        cur.skip_spaces();
        let pos = cur.pos;
        match cur.peek() {
            None => break,
            Some(b'(') => {
                let Some(from) = last_from else {
                    return Err(ParseError::new(
                        pos,
                        ParseErrorKind::Expected("a move before a variation"),
                    ));
                };
                cur.bump();
                open.push((at, last_from, pos));
                at = from;
                last_from = None;
            }
            Some(b')') => {
                let Some((back, back_from, _)) = open.pop() else {
                    return Err(ParseError::new(
                        pos,
                        ParseErrorKind::Expected("a '(' before this ')'"),
                    ));
                };
                if last_from.is_none() {
                    return Err(ParseError::new(
                        pos,
                        ParseErrorKind::Expected("a move in the variation"),
                    ));
                }
                cur.bump();
                at = back;
                last_from = back_from;
            }
            Some(_) => {
                let m = read_move::<G>(cur, text)?;
                let ply = tree.depth(at);
                let node = tree.add_child(at, m).map_err(|e| match e {
                    TreeError::Illegal(reason) => {
                        ParseError::new(pos, ParseErrorKind::Illegal { ply, reason })
                    }
                    TreeError::Full => ParseError::new(
                        pos,
                        ParseErrorKind::OutOfRange("a record holds at most 2000 moves"),
                    ),
                })?;
                last_from = Some(at);
                at = node;
            }
        }
    }
    if let Some(&(_, _, pos)) = open.last() {
        return Err(ParseError::new(
            pos,
            ParseErrorKind::Expected("a ')' to close this variation"),
        ));
    }
    tree.renumber();
    let main_end = tree
        .line(NodeId::ROOT)
        .last()
        .copied()
        .unwrap_or(NodeId::ROOT);
    tree.cursor = main_end;
    Ok(tree)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_move;
    use crate::record::{parse_record, record_string};
    use crate::Rules;
    use alloc::format;

    fn ultimate(text: &str) -> GameTree<Ultimate> {
        match parse_tree_record(text) {
            Ok(AnyTree::Ultimate(t)) => t,
            other => panic!("{text}: {other:?}"),
        }
    }

    fn moves_of<G: Game>(tree: &GameTree<G>, ids: &[NodeId]) -> String {
        ids.iter()
            .map(|&n| format!("{}", tree.move_to(n).unwrap()))
            .collect()
    }

    fn play(tree: &mut GameTree<Ultimate>, text: &str) -> NodeId {
        tree.play(parse_move(text).unwrap()).unwrap()
    }

    const BRANCHED: &str = "ultimate-standard:e5e4(d5b5)(f5)d2";

    #[test]
    fn playing_from_an_earlier_position_adds_a_side_line() {
        let mut tree = GameTree::new(Ultimate::new(Rules::Standard));
        let e5 = play(&mut tree, "e5");
        for m in ["e4", "d2"] {
            play(&mut tree, m);
        }
        tree.jump(e5);
        // The next move of the main line is followed, not added again.
        play(&mut tree, "e4");
        assert_eq!(tree.len(), 3);
        tree.jump(NodeId::from_index(1).unwrap());
        play(&mut tree, "d5");
        play(&mut tree, "b5");
        tree.jump(NodeId::from_index(1).unwrap());
        let f5 = play(&mut tree, "f5");
        assert_eq!(tree.len(), 6);
        assert_eq!(tree_record_string(&tree), BRANCHED);
        assert_eq!(moves_of(&tree, &tree.line(NodeId::ROOT)), "e5e4d2");
        assert_eq!(moves_of(&tree, &tree.line(f5)), "e5f5");
        assert!(!tree.is_main_line(f5));
        // The history of the line shown is what the rest of the game uses.
        assert_eq!(tree.cursor(), f5);
        assert_eq!(record_string(&tree.history()), "ultimate-standard:e5f5");
        assert_eq!(tree.history().cursor(), 2);
    }

    #[test]
    fn records_with_variations_round_trip_and_plain_ones_read_as_before() {
        let tree = ultimate(BRANCHED);
        assert_eq!(tree_record_string(&tree), BRANCHED);
        assert_eq!(tree.cursor(), *tree.line(NodeId::ROOT).last().unwrap());
        assert_eq!(
            record_string(&tree.main_history()),
            "ultimate-standard:e5e4d2"
        );
        // The plain reader refuses the bracket, as it always has.
        assert_eq!(parse_record(BRANCHED).unwrap_err().at, 22);
        // Nested lines, spaces and a move given twice read as one tree.
        let spaced = ultimate("ultimate-standard: e5 e4 (d5 (f5) b5) (e4 d2)");
        assert_eq!(tree_record_string(&spaced), BRANCHED);
        assert_eq!(spaced, tree);
        let plain = "classic:a1b2c3";
        let AnyTree::Classic(classic) = parse_tree_record(plain).unwrap() else {
            panic!("not classic");
        };
        assert_eq!(tree_record_string(&classic), plain);
        assert_eq!(
            GameTree::from_history(&classic.main_history()).unwrap(),
            classic
        );
    }

    #[test]
    fn variation_errors_point_at_the_problem() {
        let at = |text: &str| parse_tree_record(text).unwrap_err();
        assert_eq!(at("classic:(a1)").at, 8);
        assert_eq!(at("classic:a1()").at, 11);
        assert_eq!(at("classic:a1(b2").at, 10);
        assert_eq!(at("classic:a1(b2(c3)").at, 10);
        assert_eq!(at("classic:a1)").at, 10);
        let illegal = at("classic:a1b2(a1)");
        assert_eq!(illegal.at, 13);
        assert!(matches!(
            illegal.kind,
            ParseErrorKind::Illegal { ply: 1, .. }
        ));
        assert_eq!(at("classic:a1(b2z9)").at, 13);
    }

    #[test]
    fn a_line_is_promoted_or_deleted() {
        let mut tree = ultimate(BRANCHED);
        let f5 = *tree
            .children(NodeId::from_index(1).unwrap())
            .last()
            .unwrap();
        assert_eq!(
            tree.move_to(f5).map(|m| format!("{m}")).as_deref(),
            Some("f5")
        );
        assert!(tree.promote(f5));
        assert_eq!(
            tree_record_string(&tree),
            "ultimate-standard:e5f5(e4d2)(d5b5)"
        );
        assert!(!tree.promote(NodeId::ROOT));

        // Deleting the line the cursor is in takes the cursor back to its branch.
        let mut tree = ultimate(BRANCHED);
        let e4 = NodeId::from_index(2).unwrap();
        assert_eq!(moves_of(&tree, &[e4]), "e4");
        assert!(tree.delete(e4));
        assert_eq!(tree_record_string(&tree), "ultimate-standard:e5d5(f5)b5");
        assert_eq!(tree.cursor(), NodeId::from_index(1).unwrap());
        assert_eq!(tree.len(), 4);
        assert!(!tree.delete(NodeId::ROOT));
        assert!(!tree.delete(NodeId::from_index(99).unwrap()));
    }

    #[test]
    fn a_tree_stops_at_its_limit_and_deep_nesting_is_read_without_recursion() {
        // Random lines of six moves from the start, until the tree is full.
        let mut tree = GameTree::new(Ultimate::new(Rules::Standard));
        let mut seed = 1_u32;
        let full = 'fill: loop {
            tree.jump(NodeId::ROOT);
            for _ in 0..6 {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                let moves = tree.current().legal_moves();
                let before = tree.clone();
                if let Err(e) = tree.play(moves[(seed >> 16) as usize % moves.len()]) {
                    assert_eq!(tree, before, "a refused move changes nothing");
                    break 'fill e;
                }
            }
        };
        assert_eq!(full, TreeError::Full);
        assert_eq!(tree.len(), MAX_NODES);

        // A move given 5,000 times, each inside the last: one move, read in a loop.
        let nested = format!("classic:a1{}{}", "(a1".repeat(5000), ")".repeat(5000));
        let AnyTree::Classic(one) = parse_tree_record(&nested).unwrap() else {
            panic!("not classic");
        };
        assert_eq!(tree_record_string(&one), "classic:a1");
    }
}
