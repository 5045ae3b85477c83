// @ts-check
// Conditional moves in the Online tab (docs/protocol.md, "Conditional
// moves"; the lines are features/conditional.js's, the server plays them):
// in a correspondence game, at the opponent's move, the player plays the
// opponent's move, their answer, and on, on a small analysis board from
// the game's position (planboard.js) and keeps the line; or types it in
// the board's coordinates ("d4 b2 f4 d3"), checked by the core from the
// position before it is sent. The kept lines are listed, each with
// Remove. Shown in a game of days the player sits in, while it is played.
//
// Hooks: `[data-conditional]` (the part), the small board's (planboard.js),
// `[data-action="plan-keep"]` and the line played `[data-plan-line]`; the
// field `[data-conditional-input]` and `[data-action="conditional-add"]`;
// each kept line `[data-conditional-line]` with
// `[data-action="conditional-remove"]`.

import { t, onLangChange } from './i18n.js';
import { el } from './dom.js';
import { WebGame } from './wasm.js';
import { createPlanBoard, pointName } from './planboard.js';

/** Lines a seat may keep, and moves in one (the protocol's limits). */
const MAX_LINES = 16;
const MAX_PLIES = 12;

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
  const heading = el('h4', { class: 'conditional-heading' });
  const hint = el('p', { class: 'hint' });
  const input = el('input', { type: 'text', class: 'conditional-text', maxlength: '60', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off', 'data-conditional-input': '' });
  const add = el('button', { type: 'submit', class: 'btn small', 'data-action': 'conditional-add' });
  const form = el('form', { class: 'conditional-form', novalidate: '' }, input, add);
  const problem = el('p', { class: 'hint', role: 'status' });
  const list = el('ul', { class: 'conditional-lines' });
  const planned = el('p', { class: 'hint', 'data-plan-line': '' });
  const keep = el('button', { type: 'button', class: 'btn small primary', 'data-action': 'plan-keep' });
  const board = createPlanBoard(() => drawPlan());
  const plan = el('div', { class: 'plan-part' }, board.node, planned, el('p', { class: 'online-actions' }, keep));
  const node = el('section', { class: 'conditional', 'data-conditional': '', hidden: '' }, heading, hint, plan, form, problem, list);

  /** The line played on the small board, in words, and whether it may be kept. */
  const drawPlan = () => {
    const room = here();
    const line = board.line();
    const names = room ? line.map((point) => pointName(room.options.kind, point)) : [];
    planned.textContent = names.length === 0 ? t('conditional.planHint') : t(line.length % 2 === 0 ? 'conditional.planned' : 'conditional.plannedTheirs', { line: names.join(' ') });
    keep.textContent = t('conditional.keep');
    keep.disabled = line.length < 2 || line.length % 2 !== 0;
  };

  /** The room, when the part applies: a game of days in play, both seats taken, this page in one. */
  const here = () => {
    const { roomState, side } = controller.onlineRoom();
    const begun = roomState && roomState.x !== 'empty' && roomState.o !== 'empty';
    return begun && side && roomState.options.days && !roomState.result ? roomState : null;
  };
  /** The text sent last, cleared from the field once the server keeps it. */
  let sent = '';
  /** Keeps `line` with the others (one already kept is not kept twice); false when not connected. */
  const keepLine = (line) => {
    const kept = controller.onlineRoom().conditional;
    const same = (a, b) => a.length === b.length && a.every((p, i) => p.board === b[i].board && p.cell === b[i].cell);
    return kept.some((k) => same(k, line)) || controller.onlineConditional.set([...kept, line]);
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
    input.setAttribute('aria-label', t('conditional.typed'));
    add.textContent = t('conditional.add');
    form.hidden = !theirs || conditional.length >= MAX_LINES;
    plan.hidden = form.hidden;
    if (!plan.hidden) board.reset(room.record);
    board.draw();
    drawPlan();
    list.replaceChildren(
      ...conditional.map((line, i) => {
        const pairs = [];
        for (let j = 0; j + 1 < line.length; j += 2) {
          pairs.push(t('conditional.pair', { theirs: pointName(room.options.kind, line[j]), mine: pointName(room.options.kind, line[j + 1]) }));
        }
        const remove = el('button', { type: 'button', class: 'btn small', 'data-action': 'conditional-remove', text: t('conditional.remove'), 'aria-label': t('conditional.removeLine', { line: pairs.join(t('conditional.then')) }) });
        remove.addEventListener('click', () => controller.onlineConditional.set(conditional.filter((_, k) => k !== i)));
        return el('li', { class: 'conditional-line', 'data-conditional-line': '' }, el('span', { text: pairs.join(t('conditional.then')) }), ' ', remove);
      }),
    );
  };

  keep.addEventListener('click', () => {
    const line = board.line();
    if (line.length < 2 || line.length % 2 !== 0) return;
    const room = here();
    if (keepLine(line) && room) board.reset(room.record);
  });
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
    if (keepLine(read.line)) sent = input.value;
    else problem.textContent = t('conditional.offline');
  });
  controller.subscribe((change) => {
    // The server kept what was typed: the field is free again.
    if (change.cause === 'conditional' && sent && input.value === sent) input.value = '';
    if (change.cause === 'conditional') sent = '';
    if (change.cause === 'conditional' || ('game' in change && change.cause === 'online')) render();
  });
  onLangChange(render);
  render();
  return node;
}
