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
use crate::record::{header, read_move, read_record_header};
use crate::AnyGame;
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
    /// A history added starts from another position than the tree.
    OtherStart,
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TreeError::Illegal(reason) => write!(f, "{reason}"),
            TreeError::Full => write!(f, "the game holds {MAX_NODES} moves, the most it can"),
            TreeError::OtherStart => write!(f, "the line starts from another position"),
        }
    }
}

/// One step of the record's order (see [`GameTree::walk`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The move to this position.
    Move(NodeId),
    /// A variation begins: it plays instead of the move before it.
    Open,
    /// The variation ends.
    Close,
}

/// One position of a tree: the move to it (as its code, see
/// [`Game::move_code`]), the position before and the moves tried from it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Node {
    /// The move that led here (the root's is 0, never read).
    code: u8,
    /// The node before (the root's is itself).
    parent: NodeId,
    /// The moves tried from here, the main line's first.
    children: Vec<NodeId>,
}

/// The shape of a tree, the same for both games, so its walks and edits
/// exist once: every node's move, parent and children.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Arena {
    nodes: Vec<Node>,
}

impl Arena {
    fn new() -> Arena {
        Arena {
            nodes: vec![Node {
                code: 0,
                parent: NodeId::ROOT,
                children: Vec::new(),
            }],
        }
    }

    fn contains(&self, id: NodeId) -> bool {
        id.index() < self.nodes.len()
    }

    fn children(&self, id: NodeId) -> &[NodeId] {
        self.nodes.get(id.index()).map_or(&[], |n| &n.children)
    }

    fn parent(&self, id: NodeId) -> Option<NodeId> {
        if id == NodeId::ROOT {
            return None;
        }
        self.nodes.get(id.index()).map(|n| n.parent)
    }

    fn code(&self, id: NodeId) -> u8 {
        self.nodes[id.index()].code
    }

    fn path(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = Vec::new();
        let mut at = id;
        while let Some(parent) = self.parent(at) {
            path.push(at);
            at = parent;
        }
        path.reverse();
        path
    }

    fn line(&self, id: NodeId) -> Vec<NodeId> {
        let mut line = self.path(id);
        let mut at = id;
        while let Some(&next) = self.children(at).first() {
            line.push(next);
            at = next;
        }
        line
    }

    fn child_with(&self, id: NodeId, code: u8) -> Option<NodeId> {
        self.children(id)
            .iter()
            .copied()
            .find(|&c| self.code(c) == code)
    }

    /// Adds a child with `code` to `parent`; none when the tree is full.
    fn push(&mut self, parent: NodeId, code: u8) -> Option<NodeId> {
        if self.nodes.len() > MAX_NODES {
            return None;
        }
        let id = NodeId::from_index(self.nodes.len())?;
        self.nodes.push(Node {
            code,
            parent,
            children: Vec::new(),
        });
        self.nodes[parent.index()].children.push(id);
        Some(id)
    }

    /// Drops the nodes from index `len` on, added since the tree had `len`.
    fn forget_after(&mut self, len: usize) {
        self.nodes.truncate(len);
        for node in &mut self.nodes {
            node.children.retain(|c| c.index() < len);
        }
    }

    fn promote(&mut self, id: NodeId) {
        for n in self.path(id) {
            let parent = self.nodes[n.index()].parent;
            let children = &mut self.nodes[parent.index()].children;
            if let Some(i) = children.iter().position(|&c| c == n) {
                children[..=i].rotate_right(1);
            }
        }
    }

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
    /// reached (a deleted line), so equal trees are equal values; returns
    /// `cursor`'s new id.
    fn renumber(&mut self, cursor: NodeId) -> NodeId {
        let mut order = vec![NodeId::ROOT];
        self.walk(|step| {
            if let Step::Move(n) = step {
                order.push(n);
            }
        });
        let mut new_id = vec![NodeId::ROOT; self.nodes.len()];
        for (i, &old) in order.iter().enumerate() {
            // At most MAX_NODES + 1 nodes, so every index fits.
            new_id[old.index()] = NodeId(i as u32);
        }
        let id = |old: NodeId| new_id[old.index()];
        let nodes = order
            .iter()
            .map(|&old| {
                let node = &self.nodes[old.index()];
                Node {
                    code: node.code,
                    parent: id(node.parent),
                    children: node.children.iter().map(|&c| id(c)).collect(),
                }
            })
            .collect();
        self.nodes = nodes;
        id(cursor)
    }
}

/// A game with its variations, and a cursor at the position shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameTree<G: Game> {
    start: G,
    arena: Arena,
    cursor: NodeId,
}

impl<G: Game> GameTree<G> {
    /// A tree with no moves, from `start`.
    #[must_use]
    pub fn new(start: G) -> Self {
        GameTree {
            start,
            arena: Arena::new(),
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

    /// How many moves the tree holds, in every line.
    #[must_use]
    pub fn len(&self) -> usize {
        self.arena.nodes.len() - 1
    }

    /// Whether no move has been played.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.arena.nodes.len() == 1
    }

    /// Whether `id` is a position of this tree.
    #[must_use]
    pub fn contains(&self, id: NodeId) -> bool {
        self.arena.contains(id)
    }

    /// The position shown.
    #[must_use]
    pub fn cursor(&self) -> NodeId {
        self.cursor
    }

    /// The position the tree starts from.
    #[must_use]
    pub fn start(&self) -> &G {
        &self.start
    }

    /// The position at the cursor.
    #[must_use]
    pub fn current(&self) -> G {
        self.position(self.cursor).unwrap_or(self.start)
    }

    /// The position at `id`, replayed from the start (every move of the
    /// tree was checked when it was added).
    #[must_use]
    pub fn position(&self, id: NodeId) -> Option<G> {
        if !self.contains(id) {
            return None;
        }
        let mut position = self.start;
        for n in self.arena.path(id) {
            position.play_unchecked(G::move_from_code(self.arena.code(n)));
        }
        Some(position)
    }

    /// The move that leads to `id` (none for the root).
    #[must_use]
    pub fn move_to(&self, id: NodeId) -> Option<G::Move> {
        self.arena
            .parent(id)
            .map(|_| G::move_from_code(self.arena.code(id)))
    }

    /// The position before `id` (none for the root).
    #[must_use]
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.arena.parent(id)
    }

    /// The moves tried from `id`, the main line's first.
    #[must_use]
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        self.arena.children(id)
    }

    /// How many moves lead from the start to `id`.
    #[must_use]
    pub fn depth(&self, id: NodeId) -> usize {
        self.arena.path(id).len()
    }

    /// The positions from the start to `id`: `id`'s ancestors, oldest
    /// first, then `id` (the root not included).
    #[must_use]
    pub fn path(&self, id: NodeId) -> Vec<NodeId> {
        self.arena.path(id)
    }

    /// The line through `id`: its path, then the main continuation after it.
    #[must_use]
    pub fn line(&self, id: NodeId) -> Vec<NodeId> {
        self.arena.line(id)
    }

    /// Whether `id` is on the main line.
    #[must_use]
    pub fn is_main_line(&self, id: NodeId) -> bool {
        self.contains(id)
            && self
                .path(id)
                .iter()
                .all(|&n| self.children(self.arena.nodes[n.index()].parent).first() == Some(&n))
    }

    /// Plays `m` at the cursor: the line it already has if it was played
    /// before, else a new one (the main continuation if the position had
    /// none, a side line otherwise). The cursor moves to it.
    ///
    /// # Errors
    /// An illegal move, or a full tree; nothing changes.
    pub fn play(&mut self, m: G::Move) -> Result<NodeId, TreeError> {
        let node = self.add_child(self.cursor, m)?;
        self.cursor = self.arena.renumber(node);
        Ok(self.cursor)
    }

    /// Adds the line `moves` from the start (following the moves already
    /// there) and moves the cursor to its end.
    ///
    /// # Errors
    /// The index of the first illegal move and why, or a full tree; nothing
    /// changes.
    pub fn add_line(&mut self, moves: &[G::Move]) -> Result<NodeId, (usize, TreeError)> {
        let before = self.arena.nodes.len();
        let mut at = NodeId::ROOT;
        for (i, &m) in moves.iter().enumerate() {
            match self.add_child(at, m) {
                Ok(next) => at = next,
                Err(e) => {
                    self.arena.forget_after(before);
                    return Err((i, e));
                }
            }
        }
        self.cursor = self.arena.renumber(at);
        Ok(self.cursor)
    }

    /// Adds every move of `history` from the start (following the moves
    /// already there) and moves the cursor to its end. A history holds only
    /// legal moves, so none is checked again.
    ///
    /// # Errors
    /// [`TreeError::OtherStart`] for a history from another position, or a
    /// full tree; nothing changes.
    pub fn add_history(&mut self, history: &History<G>) -> Result<NodeId, TreeError> {
        if *history.start() != self.start {
            return Err(TreeError::OtherStart);
        }
        let before = self.arena.nodes.len();
        let mut at = NodeId::ROOT;
        for &m in history.moves() {
            let code = G::move_code(m);
            let next = self
                .arena
                .child_with(at, code)
                .or_else(|| self.arena.push(at, code));
            let Some(next) = next else {
                self.arena.forget_after(before);
                return Err(TreeError::Full);
            };
            at = next;
        }
        self.cursor = self.arena.renumber(at);
        Ok(self.cursor)
    }

    /// The position the line `moves` from the start reaches, if the tree has it.
    #[must_use]
    pub fn find(&self, moves: &[G::Move]) -> Option<NodeId> {
        moves.iter().try_fold(NodeId::ROOT, |at, &m| {
            self.arena.child_with(at, G::move_code(m))
        })
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
        if self.parent(id).is_none() {
            return false;
        }
        self.arena.promote(id);
        self.cursor = self.arena.renumber(self.cursor);
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
        self.arena.nodes[parent.index()]
            .children
            .retain(|&c| c != id);
        self.cursor = self.arena.renumber(self.cursor);
        true
    }

    /// The line through the cursor as a history, its cursor at the cursor.
    #[must_use]
    pub fn history(&self) -> History<G> {
        self.history_at(self.cursor)
            .unwrap_or_else(|| self.main_history())
    }

    /// The line through `id` (see [`GameTree::line`]) as a history, its
    /// cursor at `id`; none for an unknown id.
    #[must_use]
    pub fn history_at(&self, id: NodeId) -> Option<History<G>> {
        if !self.contains(id) {
            return None;
        }
        let mut history = self.line_history(id);
        history.jump(self.depth(id));
        Some(history)
    }

    /// The main line as a history, its cursor at the end.
    #[must_use]
    pub fn main_history(&self) -> History<G> {
        self.line_history(NodeId::ROOT)
    }

    fn line_history(&self, id: NodeId) -> History<G> {
        let mut history = History::new(self.start);
        for n in self.line(id) {
            // Every move of the tree was checked when it was added.
            let _ = history.play(G::move_from_code(self.arena.code(n)));
        }
        history
    }

    /// Adds `m` after `parent` (or finds it there), without renumbering.
    fn add_child(&mut self, parent: NodeId, m: G::Move) -> Result<NodeId, TreeError> {
        // Checked first: only a move in range has a code of its own.
        let position = self.position(parent).unwrap_or(self.start);
        position.check(m).map_err(TreeError::Illegal)?;
        let code = G::move_code(m);
        if let Some(found) = self.arena.child_with(parent, code) {
            return Ok(found);
        }
        self.arena.push(parent, code).ok_or(TreeError::Full)
    }

    /// Visits the tree in the record's order: each position's main move,
    /// then each other move there as a bracketed line, then the main move's
    /// continuation. Node ids come in increasing order.
    pub fn walk(&self, visit: impl FnMut(Step)) {
        self.arena.walk(visit);
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

/// Code written once for both games, which [`AnyTree::visit`] runs on a
/// tree and a line of the same game.
pub trait VisitLines {
    /// What the code returns.
    type Output;

    /// Runs the code on `tree` and `line`.
    fn visit<G: Game>(self, tree: &GameTree<G>, line: &History<G>) -> Self::Output;
}

/// [`VisitLines`] for code that changes the tree or the line
/// ([`AnyTree::visit_mut`]).
pub trait VisitLinesMut {
    /// What the code returns.
    type Output;

    /// Runs the code on `tree` and `line`.
    fn visit<G: Game>(self, tree: &mut GameTree<G>, line: &mut History<G>) -> Self::Output;
}

impl AnyTree {
    /// A tree with no moves, from the start of `game`.
    #[must_use]
    pub fn starting(game: &AnyGame) -> AnyTree {
        match game {
            AnyGame::Ultimate(h) => AnyTree::Ultimate(GameTree::new(*h.start())),
            AnyGame::Classic(h) => AnyTree::Classic(GameTree::new(*h.start())),
        }
    }

    /// Runs `code` on this tree and `line`; `None` when `line` is of the
    /// other game.
    pub fn visit<V: VisitLines>(&self, line: &AnyGame, code: V) -> Option<V::Output> {
        match (self, line) {
            (AnyTree::Ultimate(t), AnyGame::Ultimate(h)) => Some(code.visit(t, h)),
            (AnyTree::Classic(t), AnyGame::Classic(h)) => Some(code.visit(t, h)),
            _ => None,
        }
    }

    /// Runs `code` on this tree and `line`, which it may change; `None`
    /// when `line` is of the other game.
    pub fn visit_mut<V: VisitLinesMut>(
        &mut self,
        line: &mut AnyGame,
        code: V,
    ) -> Option<V::Output> {
        match (self, line) {
            (AnyTree::Ultimate(t), AnyGame::Ultimate(h)) => Some(code.visit(t, h)),
            (AnyTree::Classic(t), AnyGame::Classic(h)) => Some(code.visit(t, h)),
            _ => None,
        }
    }

    /// How many moves the tree holds, in every line.
    #[must_use]
    pub fn len(&self) -> usize {
        match self {
            AnyTree::Ultimate(t) => t.len(),
            AnyTree::Classic(t) => t.len(),
        }
    }

    /// True when the tree holds no move.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The record of every line (see [`tree_record_string`]).
    #[must_use]
    pub fn record_string(&self) -> String {
        match self {
            AnyTree::Ultimate(t) => tree_record_string(t),
            AnyTree::Classic(t) => tree_record_string(t),
        }
    }

    /// The main line, its cursor at the end.
    #[must_use]
    pub fn main_line(&self) -> AnyGame {
        match self {
            AnyTree::Ultimate(t) => AnyGame::Ultimate(t.main_history()),
            AnyTree::Classic(t) => AnyGame::Classic(t.main_history()),
        }
    }

    /// The line through `id` as a game, its cursor at `id` (see
    /// [`GameTree::history_at`]); none for an unknown id.
    #[must_use]
    pub fn history_at(&self, id: NodeId) -> Option<AnyGame> {
        match self {
            AnyTree::Ultimate(t) => t.history_at(id).map(AnyGame::Ultimate),
            AnyTree::Classic(t) => t.history_at(id).map(AnyGame::Classic),
        }
    }

    /// Makes the line through `id` the main line (see [`GameTree::promote`]).
    pub fn promote(&mut self, id: NodeId) -> bool {
        match self {
            AnyTree::Ultimate(t) => t.promote(id),
            AnyTree::Classic(t) => t.promote(id),
        }
    }
}

/// Writes the record of every line of `tree` (see the module's doc), from
/// the empty board; a plain record when it has no side lines.
#[must_use]
pub fn tree_record_string<G: Game>(tree: &GameTree<G>) -> String {
    let mut out = String::from(header(G::KIND, tree.start.rules()));
    out.push(':');
    tree.walk(|step| match step {
        Step::Move(n) => {
            let _ = write!(out, "{}", G::move_from_code(tree.arena.code(n)));
        }
        Step::Open => out.push('('),
        Step::Close => out.push(')'),
    });
    out
}

/// The main line of a record with or without variations (its side lines
/// read and checked, then left aside), the cursor at its end: what a
/// program that plays or analyses one game makes of any record the page
/// shares.
///
/// # Errors
/// As [`parse_tree_record`].
pub fn parse_main_line(text: &str) -> Result<AnyGame, ParseError> {
    parse_tree_record(text).map(|tree| tree.main_line())
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
    let read = |cur: &mut Cursor<'_>| read_move::<G>(cur, text).map(G::move_code);
    let (arena, offsets) = read_shape(cur, &read)?;
    check_moves(&arena, &offsets, start)?;
    let mut tree = GameTree {
        start,
        arena,
        cursor: NodeId::ROOT,
    };
    tree.arena.renumber(NodeId::ROOT);
    tree.cursor = tree
        .line(NodeId::ROOT)
        .last()
        .copied()
        .unwrap_or(NodeId::ROOT);
    Ok(tree)
}

/// Reads the moves and brackets into a tree's shape, each move as its code,
/// not yet checked; with the offset of each node's move in the text. (Not
/// generic, so it exists once for both games.)
fn read_shape(
    cur: &mut Cursor<'_>,
    read_code: &dyn Fn(&mut Cursor<'_>) -> Result<u8, ParseError>,
) -> Result<(Arena, Vec<usize>), ParseError> {
    let mut arena = Arena::new();
    let mut offsets = vec![0];
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
                let code = read_code(cur)?;
                // The reader gives only moves in range, so a code names one move.
                let node = match arena.child_with(at, code) {
                    Some(known) => known,
                    None => {
                        offsets.push(pos);
                        arena.push(at, code).ok_or(ParseError::new(
                            pos,
                            ParseErrorKind::OutOfRange("a record holds at most 2000 moves"),
                        ))?
                    }
                };
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
    Ok((arena, offsets))
}

/// Checks every move of a shape read from text, in the order read (a
/// node's parent comes before it), reporting the first illegal one where
/// it stands.
fn check_moves<G: Game>(arena: &Arena, offsets: &[usize], start: G) -> Result<(), ParseError> {
    let mut positions = Vec::with_capacity(arena.nodes.len());
    let mut depths = Vec::with_capacity(arena.nodes.len());
    positions.push(start);
    depths.push(0);
    for (i, node) in arena.nodes.iter().enumerate().skip(1) {
        let mut position = positions[node.parent.index()];
        let ply = depths[node.parent.index()];
        let m = G::move_from_code(node.code);
        position.check(m).map_err(|reason| {
            ParseError::new(offsets[i], ParseErrorKind::Illegal { ply, reason })
        })?;
        position.play_unchecked(m);
        positions.push(position);
        depths.push(ply + 1);
    }
    Ok(())
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
    fn a_line_is_added_whole_or_not_at_all() {
        let mut tree = ultimate(BRANCHED);
        let moves = |text: &str| -> Vec<crate::Move> {
            text.as_bytes()
                .chunks(2)
                .map(|c| parse_move(core::str::from_utf8(c).unwrap()).unwrap())
                .collect()
        };
        let before = tree.clone();
        // e5 f5 then a1: illegal (X must play in board 5); nothing is added.
        assert!(matches!(
            tree.add_line(&moves("e5f5g5a1")),
            Err((3, TreeError::Illegal(_)))
        ));
        assert_eq!(tree, before);
        let end = tree.add_line(&moves("e5f5g5")).unwrap();
        assert_eq!(tree.cursor(), end);
        assert_eq!(tree.find(&moves("e5f5g5")), Some(end));
        assert_eq!(
            tree.find(&moves("e5e4")),
            Some(NodeId::from_index(2).unwrap())
        );
        assert_eq!(tree.find(&moves("e5e6")), None);
        assert_eq!(
            tree_record_string(&tree),
            "ultimate-standard:e5e4(d5b5)(f5g5)d2"
        );
        // A history's moves are added alike, from the same start only.
        let history = History::from_moves(*tree.start(), &moves("e5d5b4")).unwrap();
        let end = tree.add_history(&history).unwrap();
        assert_eq!(tree.find(&moves("e5d5b4")), Some(end));
        let other = History::new(Ultimate::new(Rules::TieBreak));
        let before = tree.clone();
        assert_eq!(tree.add_history(&other), Err(TreeError::OtherStart));
        assert_eq!(tree, before);
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
