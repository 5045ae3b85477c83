// @ts-check
// The welcome for newcomers: a short interactive tutorial in a modal
// <dialog>, on a small real board of its own (a second BoardView, never the
// page's #board). Every position comes from a record read by the core, every
// move is played through the core, and a refused click is explained from the
// core's error code: the tutorial decides no rule, it only checks what the
// core reports (a board won, the game won) against the step's lesson.
//
// Shown once on the first visit (localStorage 'uttt.tutorial' absent);
// finishing or skipping stores 'done'. The Help button (#btn-help) and the
// '?' key (main.js passes createHelp's open to bindKeyboard) open it again.

import { WebGame } from './wasm.js';
import { BoardView } from './board.js';
import { t, regionName, onLangChange } from './i18n.js';
import { refusal } from './status.js';
import { el } from './dom.js';
import { isTouchDevice } from './pointer.js';

const STORAGE_KEY = 'uttt.tutorial';

/**
 * The steps. `record` is the position the step starts from (checked by the
 * core when read); `text` is the key of the lesson's sentence; `reply` is a
 * scripted move of O's, played through the core before the learner's turn;
 * `goal` is what the learner's move must achieve, as the core reports it:
 * 'move' (any legal move), 'board' (it wins a small board), 'game' (it wins
 * the game), or none (a card to read).
 */
export const STEPS = [
  // X e5, O e4 (the top cell of the centre board): X is sent to the top board.
  { id: 'send', text: 'how.2', record: 'ultimate-standard:e5e4', goal: 'move' },
  // X has a1 and b1 in the top-left board and must play there: c1 wins it.
  { id: 'won', text: 'tutorial.won.text', record: 'ultimate-standard:e5d4a1b2e4d1b1e2f6g7', goal: 'board' },
  // After c1 O must answer in the top-right board; its g1 (the top-left cell)
  // sends X to the top-left board, already won: a free move.
  { id: 'free', text: 'tutorial.free.text', record: 'ultimate-standard:e5d4a1b2e4d1b1e2f6g7c1', reply: [2, 0], goal: 'move' },
  // X has won the top-left and centre boards and must play in the
  // bottom-right one, where g7 and g8 are X's: g9 wins the diagonal.
  { id: 'game', text: 'how.1', record: 'ultimate-standard:g7b2f6h8d4c3g8b5e5g1b1e2c1h2a1c9', goal: 'game' },
  // The last card: e5 on the board, the coordinates, and the keys (or, on a
  // touch screen, which has none, where the buttons are).
  { id: 'keys', text: 'tutorial.keys.coords', record: 'ultimate-standard:e5' },
];

const REPLY_DELAY_MS = 650;

/**
 * The keys on the last card: [keys, description key].
 * @type {[string[], string][]}
 */
const KEYS = [
  [['N'], 'tutorial.key.new'],
  [['U', 'Ctrl+Z'], 'tutorial.key.undo'],
  [['R', 'Ctrl+Y'], 'tutorial.key.redo'],
  [['H'], 'tutorial.key.hint'],
  [['B'], 'tutorial.key.board'],
  [['?'], 'tutorial.key.help'],
  [['P', 'S'], 'tutorial.key.watch'],
  [['← ↑ → ↓'], 'tutorial.key.arrows'],
  [['Enter'], 'tutorial.key.enter'],
];

function markDone() {
  try {
    localStorage.setItem(STORAGE_KEY, 'done');
  } catch {
    // Storage refused: it was seen on this visit all the same.
  }
}

/** True when the tutorial should open by itself: storage works and holds no 'done'. */
function firstVisit() {
  try {
    return localStorage.getItem(STORAGE_KEY) === null;
  } catch {
    // Storage refused: every visit would look like the first; do not insist.
    return false;
  }
}

/** Row and column (0-8) of a cell button of the tutorial board. */
function rowCol(button) {
  const b = Number(button.dataset.board);
  const c = Number(button.dataset.cell);
  return [Math.floor(b / 3) * 3 + Math.floor(c / 3), (b % 3) * 3 + (c % 3)];
}

/** Builds the dialog and runs the steps; `onClose` is called once when it closes. */
function createTutorial(onClose) {
  const skip = el('button', { type: 'button', class: 'btn tutorial-skip', 'data-testid': 'tutorial-skip' });
  const count = el('span', { class: 'tutorial-count', 'data-testid': 'tutorial-count' });
  const kicker = el('span', { class: 'tutorial-kicker' });
  const head = el('header', { class: 'tutorial-head' }, el('p', { class: 'tutorial-meta' }, kicker, count), skip);

  const cols = el('div', { class: 'coords coords-cols', 'aria-hidden': 'true' });
  const rows = el('div', { class: 'coords coords-rows', 'aria-hidden': 'true' });
  const root = el('div', { id: 'tutorial-board', class: 'board tutorial-board', role: 'group', 'data-testid': 'tutorial-board' });
  const frame = el('div', { class: 'board-frame tutorial-frame', 'data-coords': 'on' }, cols, rows, root);
  const stage = el('div', { class: 'tutorial-stage' }, frame);

  const title = el('h2', { id: 'tutorial-title', class: 'tutorial-title', tabindex: '-1' });
  const text = el('p', { id: 'tutorial-text', class: 'tutorial-text' });
  const task = el('p', { class: 'tutorial-task', 'aria-live': 'polite', 'data-testid': 'tutorial-task' });
  const message = el('p', { class: 'tutorial-message', role: 'status', 'aria-live': 'polite', 'data-testid': 'tutorial-message' });
  const extra = el('div', { class: 'tutorial-extra' });
  const copy = el('div', { class: 'tutorial-copy' }, title, text, task, extra, message);

  const back = el('button', { type: 'button', class: 'btn tutorial-back', 'data-testid': 'tutorial-back' });
  const next = el('button', { type: 'button', class: 'btn tutorial-next', 'data-testid': 'tutorial-next' });
  const dots = el('div', { class: 'tutorial-dots', 'aria-hidden': 'true' }, ...STEPS.map(() => el('span', { class: 'tutorial-dot' })));
  const foot = el('footer', { class: 'tutorial-foot' }, dots, el('div', { class: 'tutorial-nav' }, back, next));

  const dialog = el(
    'dialog',
    { class: 'tutorial', 'data-testid': 'tutorial', 'aria-labelledby': 'tutorial-title', 'aria-describedby': 'tutorial-text' },
    head,
    stage,
    copy,
    foot,
  );

  let step = 0;
  let game = null;
  let phase = 'play'; // 'play' | 'reply' (O is answering) | 'done' | 'read'
  let result = null; // the sentence after the learner's move, as [key, params]
  let feedback = null; // the last refusal or miss, as [key, params] or a string
  let token = 0; // bumps on every step change, so a late scripted reply is dropped
  let closed = false;

  const board = new BoardView(root, (b, c) => onCell(b, c));

  const view = () => game.view();
  const say = (entry) => {
    if (!entry) return '';
    if (typeof entry === 'string') return entry;
    return t(entry[0], entry[1]);
  };

  function drawBoard() {
    const v = view();
    board.render(v, { interactive: phase === 'play' });
    root.setAttribute('aria-label', t('tutorial.board'));
    // One tab stop on the board: the first legal cell, else the centre.
    const cells = [.../** @type {NodeListOf<HTMLButtonElement>} */ (root.querySelectorAll('button[data-cell]'))];
    const focused = cells.find((cell) => cell === document.activeElement);
    const stop = focused || root.querySelector('button[data-legal="true"]') || cells[40];
    for (const cell of cells) cell.tabIndex = cell === stop ? 0 : -1;
    return v;
  }

  /** The step's words; they depend on the position (which board to play in). */
  function drawText(v) {
    const { id } = STEPS[step];
    kicker.textContent = t('how.title');
    count.textContent = t('tutorial.count', { n: step + 1, total: STEPS.length });
    skip.textContent = t('tutorial.skip');
    back.textContent = t('tutorial.back');
    const last = step === STEPS.length - 1;
    next.textContent = t(last ? 'tutorial.play' : 'tutorial.next');
    back.disabled = step === 0;
    skip.hidden = last;
    next.classList.toggle('primary', phase === 'done' || phase === 'read');
    /** @type {NodeListOf<HTMLSpanElement>} */ (dots.querySelectorAll('.tutorial-dot')).forEach((dot, i) => {
      dot.dataset.state = i < step ? 'past' : i === step ? 'now' : 'next';
    });
    dialog.dataset.step = id;
    dialog.dataset.phase = phase;

    const touch = id === 'keys' && isTouchDevice();
    title.textContent = t(touch ? 'tutorial.keys.titleTouch' : `tutorial.${id}.title`);
    text.textContent = t(STEPS[step].text);
    const required = v.requiredBoard === null ? null : regionName(v.requiredBoard);
    let taskText = '';
    if (phase === 'reply') taskText = t('tutorial.reply');
    else if (phase === 'play') {
      const cell = v.lastCell === null ? '' : regionName(v.lastCell);
      const from = v.lastBoard === null ? '' : regionName(v.lastBoard);
      taskText = t(`tutorial.${id}.task`, { board: required ?? '', cell, from });
    }
    else if (phase === 'done') taskText = say(result);
    task.textContent = taskText;
    task.dataset.tone = phase === 'done' ? 'success' : 'task';
    task.hidden = taskText === '';
    message.textContent = say(feedback);
    message.hidden = !feedback;

    extra.replaceChildren();
    if (touch) extra.append(el('p', { class: 'tutorial-touch', 'data-testid': 'tutorial-touch', text: t('tutorial.touch') }));
    else if (id === 'keys') {
      const list = el('ul', { class: 'tutorial-keys' });
      for (const [keys, label] of KEYS) {
        const combo = el('span', { class: 'tutorial-combo' });
        keys.forEach((k, i) => {
          if (i) combo.append(' / ');
          combo.append(el('kbd', { text: k }));
        });
        list.append(el('li', {}, combo, el('span', { text: t(label) })));
      }
      extra.append(list);
    }
    extra.hidden = id !== 'keys';
  }

  function draw() {
    drawText(drawBoard());
  }

  /** The sentence after a move: where O must play now, as the core says. */
  function sentSentence(v) {
    const cell = regionName(v.lastCell);
    if (v.requiredBoard === null) return ['tutorial.sentFree', { cell }];
    return ['tutorial.sent', { cell, board: regionName(v.requiredBoard) }];
  }

  function finish(v) {
    phase = 'done';
    feedback = null;
    const { goal } = STEPS[step];
    if (goal === 'board') result = ['tutorial.won.done', { board: regionName(v.lastBoard) }];
    else if (goal === 'game') result = ['tutorial.game.done', {}];
    else result = sentSentence(v);
    draw();
    next.focus();
  }

  function onCell(b, c) {
    if (closed) return;
    if (phase === 'reply') {
      feedback = ['tutorial.wait', {}];
      drawText(view());
      return;
    }
    if (phase !== 'play') {
      if (phase === 'done') {
        feedback = ['tutorial.pressNext', {}];
        drawText(view());
      }
      return;
    }
    const before = view();
    try {
      game.play(b, c);
    } catch (error) {
      feedback = refusal(error.code ?? 'other', before, error);
      board.refuse(b, c);
      drawText(before);
      return;
    }
    const after = view();
    const { goal } = STEPS[step];
    const reached =
      goal === 'move' ||
      (goal === 'board' && before.boardStatus[b] === 0 && after.boardStatus[b] === 1) ||
      (goal === 'game' && after.outcome === 'x');
    if (reached) {
      finish(after);
      return;
    }
    // A legal move that misses the lesson: taken back, and the learner tries again.
    game.undo();
    feedback = [`tutorial.${STEPS[step].id}.miss`, { board: regionName(before.requiredBoard ?? b) }];
    board.refuse(b, c);
    draw();
  }

  function show(index) {
    token += 1;
    const mine = token;
    step = index;
    const spec = STEPS[step];
    if (game) game.free();
    game = WebGame.fromText(spec.record);
    result = null;
    feedback = null;
    phase = spec.goal ? (spec.reply ? 'reply' : 'play') : 'read';
    draw();
    if (spec.reply) {
      setTimeout(() => {
        if (closed || mine !== token) return;
        game.play(spec.reply[0], spec.reply[1]);
        phase = 'play';
        feedback = null;
        draw();
      }, REPLY_DELAY_MS);
    }
  }

  function close() {
    if (closed) return;
    closed = true;
    token += 1;
    markDone();
    unsubscribe();
    if (dialog.open) dialog.close();
    dialog.remove();
    if (game) game.free();
    game = null;
    onClose();
  }

  skip.addEventListener('click', close);
  back.addEventListener('click', () => {
    if (step > 0) show(step - 1);
  });
  next.addEventListener('click', () => {
    if (step === STEPS.length - 1) close();
    else {
      show(step + 1);
      title.focus();
    }
  });
  // Escape skips, like the Skip button.
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    close();
  });
  dialog.addEventListener('close', close);

  // Arrow keys move across the tutorial's 9x9 grid; Enter and Space play (native buttons).
  root.addEventListener('keydown', (event) => {
    const cell = /** @type {Element} */ (event.target).closest('button[data-cell]');
    if (!cell || event.altKey || event.ctrlKey || event.metaKey) return;
    const [r, c] = rowCol(cell);
    const to = {
      ArrowUp: [Math.max(0, r - 1), c],
      ArrowDown: [Math.min(8, r + 1), c],
      ArrowLeft: [r, Math.max(0, c - 1)],
      ArrowRight: [r, Math.min(8, c + 1)],
    }[event.key];
    if (!to) return;
    event.preventDefault();
    const b = Math.floor(to[0] / 3) * 3 + Math.floor(to[1] / 3);
    const k = (to[0] % 3) * 3 + (to[1] % 3);
    const target = /** @type {HTMLButtonElement | null} */ (root.querySelector(`button[data-board="${b}"][data-cell="${k}"]`));
    if (!target) return;
    for (const other of /** @type {NodeListOf<HTMLButtonElement>} */ (root.querySelectorAll('button[data-cell]'))) {
      other.tabIndex = other === target ? 0 : -1;
    }
    target.focus();
  });

  const unsubscribe = onLangChange(() => {
    if (!closed && game) draw();
  });

  document.body.append(dialog);
  dialog.showModal();
  show(0);
  title.focus();
  return { dialog, close };
}

/**
 * The tutorial as Help: `open()` opens it from its first step (nothing while
 * it is open); `start({welcome})` wires the Help button and, on the first
 * visit, opens it unless `welcome` is false (a game joined by its link
 * comes first; a later visit welcomes): call it once the page is ready
 * (the wasm is loaded).
 */
export function createHelp() {
  let shown = null; // the open tutorial, or null
  const open = () => {
    if (shown) return;
    shown = createTutorial(() => {
      shown = null;
    });
  };
  const start = ({ welcome = true } = {}) => {
    const button = document.getElementById('btn-help');
    if (button) {
      button.addEventListener('click', open);
      button.setAttribute('aria-haspopup', 'dialog');
    }
    if (welcome && firstVisit()) open();
  };
  return { open, start };
}
