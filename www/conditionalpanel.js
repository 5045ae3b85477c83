// @ts-check
// Conditional moves in the Online tab (docs/protocol.md, "Conditional
// moves"; the lines are features/conditional.js's, the server plays them):
// in a correspondence game, at the opponent's move, the player types the
// opponent's move and their answer in the board's coordinates ("d4 b2";
// more pairs make a longer line: "d4 b2 f4 d3"), each checked here by the
// core from the position before it is sent; the kept lines are listed,
// each with Remove. Shown in a game of days the player sits in, while it
// is played.
//
// Hooks: `[data-conditional]` (the part), its field
// `[data-conditional-input]`, `[data-action="conditional-add"]`, each kept
// line `[data-conditional-line]` with `[data-action="conditional-remove"]`.

import { t, onLangChange } from './i18n.js';
import { el } from './dom.js';
import { WebGame } from './wasm.js';

/** Lines a seat may keep, and moves in one (the protocol's limits). */
const MAX_LINES = 16;
const MAX_PLIES = 12;

/**
 * The name of `point` in the board's coordinates (Ultimate: a1 to i9;
 * Classic: a1 to c3).
 * @param {'ultimate' | 'classic'} kind
 * @param {import('./protocol').Point} point
 */
export function pointName(kind, { board, cell }) {
  const [col, row] =
    kind === 'classic' ? [cell % 3, Math.floor(cell / 3)] : [(board % 3) * 3 + (cell % 3), Math.floor(board / 3) * 3 + Math.floor(cell / 3)];
  return `${String.fromCharCode(97 + col)}${row + 1}`;
}

/**
 * The line `text` names from the position of `record`, as points; or the
 * key (and values) of what is wrong with it.
 * @param {string} record
 * @param {'ultimate' | 'classic'} kind
 * @param {string} text
 * @returns {{ line: import('./protocol').Point[] } | { problem: string, values?: Record<string, string | number> }}
 */
export function readLine(record, kind, text) {
  const names = text.trim().toLowerCase().split(/[\s,;]+/).filter(Boolean);
  if (names.length < 2 || names.length % 2 !== 0 || names.length > MAX_PLIES) return { problem: 'conditional.pairs', values: { max: MAX_PLIES } };
  const game = WebGame.fromText(record);
  try {
    const line = [];
    for (const [i, name] of names.entries()) {
      const ply = game.view().ply;
      const move = game.moveAfter(ply, name);
      if (move === undefined) return { problem: 'conditional.illegal', values: { n: i + 1, move: name } };
      const point = kind === 'classic' ? { board: 0, cell: move } : { board: Math.floor(move / 9), cell: move % 9 };
      game.play(point.board, point.cell);
      line.push(point);
    }
    return { line };
  } finally {
    game.free();
  }
}

/**
 * Builds the part; returns its node, which redraws itself on every change
 * of the room or of the lines.
 * @param {Controller} controller
 */
export function createConditionalPanel(controller) {
  const heading = el('h4', { class: 'chat-heading' });
  const hint = el('p', { class: 'hint' });
  const input = el('input', { type: 'text', maxlength: '60', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off', 'data-conditional-input': '' });
  const add = el('button', { type: 'submit', class: 'btn small', 'data-action': 'conditional-add' });
  const form = el('form', { class: 'chat-form', novalidate: '' }, input, add);
  const problem = el('p', { class: 'hint', role: 'status' });
  const list = el('ul', { class: 'chat-lines' });
  const node = el('section', { class: 'chat', 'data-conditional': '', hidden: '' }, heading, hint, form, problem, list);

  /** The room and seat, when the part applies: a game of days in play, seated. */
  const here = () => {
    const { roomState, side } = controller.onlineRoom();
    return roomState && side && roomState.options.days && !roomState.result ? roomState : null;
  };

  const render = () => {
    const room = here();
    const { conditional, side } = controller.onlineRoom();
    node.hidden = !room;
    if (!room) return;
    const theirs = room.toMove !== side;
    heading.textContent = t('conditional.heading');
    hint.textContent = t(theirs ? 'conditional.hint' : 'conditional.yourMove');
    input.placeholder = t('conditional.placeholder');
    add.textContent = t('conditional.add');
    form.hidden = !theirs || conditional.length >= MAX_LINES;
    list.replaceChildren(
      ...conditional.map((line, i) => {
        const pairs = [];
        for (let j = 0; j + 1 < line.length; j += 2) {
          pairs.push(t('conditional.pair', { theirs: pointName(room.options.kind, line[j]), mine: pointName(room.options.kind, line[j + 1]) }));
        }
        const remove = el('button', { type: 'button', class: 'btn small', 'data-action': 'conditional-remove', text: t('conditional.remove') });
        remove.addEventListener('click', () => controller.onlineConditional.set(conditional.filter((_, k) => k !== i)));
        return el('li', { class: 'chat-line', 'data-conditional-line': '' }, el('span', { text: pairs.join(t('conditional.then')) }), ' ', remove);
      }),
    );
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const room = here();
    if (!room) return;
    const read = readLine(room.record, room.options.kind, input.value);
    if ('problem' in read) {
      problem.textContent = t(read.problem, read.values);
      return;
    }
    problem.textContent = '';
    if (controller.onlineConditional.set([...controller.onlineRoom().conditional, read.line])) input.value = '';
  });
  controller.subscribe((change) => {
    if (change.cause === 'conditional' || ('game' in change && change.cause === 'online')) render();
  });
  onLangChange(render);
  render();
  return node;
}
