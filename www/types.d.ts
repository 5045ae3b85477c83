// The page's own shapes, declared once for the type check (`jsconfig.json`,
// the `types` layer of `cargo xtask test`). What crosses from Rust (the
// view, the lines, the worker's requests and replies) is declared by the
// generated www/pkg/*.d.ts and only named here. Nothing here reaches the
// site: the browser never loads a .d.ts.

import type { View } from './pkg/uttt_page.js';
import type { FoundPuzzle, Report, SurveyReport } from './pkg/uttt_worker.js';

declare global {
  /** A side of the board. */
  type Side = 'x' | 'o';

  /** Who plays: the person against the AI (as X or O), two people, or the AI against itself. */
  type Mode = 'ai-x' | 'ai-o' | 'human' | 'watch';

  /** The choices of the Game tab, as stored (storage.js) and applied (controller.js). */
  interface Settings {
    kind: 'ultimate' | 'classic';
    mode: Mode;
    /** The AI's level (X's in AI vs AI). */
    level: string;
    /** O's level in AI vs AI. */
    levelO: string;
    rules: 'standard' | 'tiebreak';
    speed: 'slow' | 'normal' | 'fast';
    ponder: boolean;
  }

  /** The game as the panes read it (controller.js getState), with every change of it. */
  interface GameState {
    kind: string;
    rules: string;
    mode: Mode | 'ai' | 'online';
    level: string;
    levelO: string;
    humanSide: Side | null;
    record: string | null;
    tree: string | null;
    node: number;
    lineEnd: number;
    sideLines: boolean;
    position: string;
    cursor: number;
    length: number;
    moves: string[];
    toMove: string;
    over: boolean;
    result: string | null;
    /** Online, how the finished game was decided (the server's end reason); null otherwise. */
    endReason: import('./protocol').EndReason | null;
    /** The three boards (Ultimate) or cells (Classic) in a row that won the game at the cursor; empty when none did. */
    winningThree: number[];
    /** Small boards won by X and by O at the cursor (the tie-break's count). */
    wonCounts: number[];
    thinking: boolean;
    paused: boolean;
    gameId: string;
    puzzle: string | null;
  }

  /** Why the game changed (controller.js announce and commit). */
  type GameCause =
    | 'start' | 'move' | 'ai-move' | 'undo' | 'redo' | 'jump' | 'lines' | 'load' | 'new-game' | 'continue'
    | 'pause' | 'thinking' | 'notice' | 'settings' | 'online' | 'puzzle-start' | 'puzzle-answer' | 'language';

  /** A move the board went over: where, whose, in notation, and what it decided of its small board (Ultimate). */
  interface Step {
    board: number;
    cell: number;
    side: Side;
    notation: string;
    decided: Side | 'draw' | null;
  }

  /**
   * A change of the game: the game as it is now; `moved`, that the board
   * shows another position than at the change before (or another line);
   * `step`, the move the board
   * went one on over (a move played, or stepped over again along the same
   * line), else null; `played`, that the move is new (not browsing);
   * `ended`, that it ended the game (a game found already finished is not).
   */
  interface GameChange {
    cause: GameCause;
    game: GameState;
    moved: boolean;
    step: Step | null;
    played: boolean;
    ended: boolean;
  }

  /** What createController() returns: the game controller, as the panes are given it. */
  type Controller = ReturnType<typeof import('./controller.js').createController>;

  /** Every change the panes hear, once, through the controller's subscribe. */
  type Change =
    | GameChange
    /** The archive of games changed (a game kept, a review attached, the archive cleared). */
    | { cause: 'archive' }
    /** The game review changed (getReview()). */
    | { cause: 'review'; review: any }
    /** A puzzle started, was answered or revealed, or ended (null). */
    | { cause: 'puzzle'; puzzle: PuzzleDetail | null }
    /** A report of the AI's search (its last: its answer), or of the live evaluation of the shown position. */
    | { cause: 'progress' | 'analysis'; report: ReportDetail }
    /** Every legal move's worth in the shown position, or null when the overlay is cleared. */
    | { cause: 'worth'; worth: WorthDetail | null }
    /** The live evaluation of the shown position stopped at its cap, or no longer is. */
    | { cause: 'eval-capped'; capped: boolean }
    /** The online room's chat has new lines (onlineRoom().chat). */
    | { cause: 'chat' }
    /** The seat's conditional moves changed (onlineRoom().conditional). */
    | { cause: 'conditional' };

  /** A search or analysis report as the panes read it (features/analysis.js reportDetail). */
  type ReportDetail = Pick<Report, 'depth' | 'score' | 'mate' | 'xWins' | 'draw' | 'oWins' | 'pv' | 'nodes'> & {
    /** The ply the evaluation is of, when not the shown position's (a watcher's, some moves late). */
    asOf?: number;
  };

  /** The puzzle being solved, with its attempt (the controller's getPuzzle). */
  type PuzzleDetail = FoundPuzzle & {
    stored: string | undefined;
    index: number;
    status: 'open' | 'solved' | 'revealed';
    tries: number;
    answer: { board: number; cell: number };
  };

  /** Every move's worth as drawn (features/analysis.js showWorth): the cells of `position`. */
  interface WorthDetail {
    position: string;
    cells: SurveyReport['cells'];
  }

  /** The page's events on `document`: only the language's, which the strings module sends. */
  interface DocumentEventMap {
    'uttt:lang': CustomEvent<{ lang: string }>;
  }

  interface Window {
    /** Safari before 14.1 names the Web Audio context so. */
    webkitAudioContext?: typeof AudioContext;
  }
}

export type { View };
