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

  /** The game as the panes read it (controller.js getState), sent with `uttt:state`. */
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
    thinking: boolean;
    paused: boolean;
    gameId: string;
    puzzle: string | null;
  }

  /** A search or analysis report as the panes read it (controller.js reportDetail). */
  type ReportDetail = Pick<Report, 'depth' | 'score' | 'mate' | 'xWins' | 'draw' | 'oWins' | 'pv' | 'nodes'>;

  /** The puzzle being solved, with its attempt (controller.js getPuzzle). */
  type PuzzleDetail = FoundPuzzle & {
    stored: string | undefined;
    index: number;
    status: 'open' | 'solved' | 'revealed';
    tries: number;
    answer: { board: number; cell: number };
  };

  /** Every move's worth as drawn (controller.js showWorth): the cells of `position`. */
  interface WorthDetail {
    position: string;
    cells: SurveyReport['cells'];
  }

  /** The page's events on `document`, each with what its listeners read. */
  interface DocumentEventMap {
    'uttt:state': CustomEvent<GameState>;
    'uttt:gameover': CustomEvent<GameState>;
    'uttt:history': CustomEvent<undefined>;
    'uttt:review': CustomEvent<any>;
    'uttt:puzzle': CustomEvent<PuzzleDetail | null>;
    'uttt:progress': CustomEvent<ReportDetail>;
    'uttt:analysis': CustomEvent<ReportDetail>;
    'uttt:worth': CustomEvent<WorthDetail | null>;
    'uttt:eval-capped': CustomEvent<boolean>;
    'uttt:lang': CustomEvent<{ lang: string }>;
  }

  interface Window {
    /** Safari before 14.1 names the Web Audio context so. */
    webkitAudioContext?: typeof AudioContext;
  }
}

export type { View };
