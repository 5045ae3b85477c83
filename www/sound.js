// @ts-check
// Sounds, made in the page with the Web Audio API (oscillators shaped by
// gain envelopes; no audio files): a soft click for each move, a chime when
// a small board is won, a short fanfare for a game won, a lower tone for a
// game lost or drawn. Off until the player turns them on with the "Sounds"
// checkbox of the Game pane (#opt-sound); the choice is kept in
// localStorage ('uttt.sound': 'on' | 'off'). (The top bar has no speaker
// button: on every layout it already truncates the title.)
//
// Browsers let a page start audio only from a user gesture, so the
// AudioContext is made (or resumed) on the first click, tap or key after
// sound is turned on, never before; until then nothing plays.

import { input } from './dom.js';

const KEY = 'uttt.sound';

function loadChoice() {
  try {
    return localStorage.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

function saveChoice(on) {
  try {
    localStorage.setItem(KEY, on ? 'on' : 'off');
  } catch {
    // Kept for this visit only.
  }
}

/**
 * @typedef {object} Output
 * @property {AudioContext} ctx
 * @property {GainNode} master Where every note goes: the page's volume.
 */

/**
 * The page's audio output, made at the first gesture after sound is on
 * (browsers start audio only from one), then resumed and suspended with
 * the choice.
 */
function createSpeaker() {
  /** @type {Output | null} */
  let out = null;
  return {
    /** Makes or resumes the audio context; call only from a user gesture. */
    wake() {
      if (!out) {
        const Context = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
        if (!Context) return;
        try {
          const ctx = new Context();
          const master = ctx.createGain();
          master.gain.value = 0.6;
          master.connect(ctx.destination);
          out = { ctx, master };
        } catch {
          return;
        }
      }
      if (out.ctx.state === 'suspended') out.ctx.resume().catch(() => {});
    },
    /** True until the context runs: a gesture should wake it. */
    asleep: () => !out || out.ctx.state === 'suspended',
    /** Plays sound `name` of SOUNDS if the context runs; a sound is never worth an error on the page. */
    play(name, ...args) {
      if (!out || out.ctx.state !== 'running') return;
      try {
        SOUNDS[name](out, ...args);
      } catch {
        // Nothing to tell: the game goes on in silence.
      }
    },
    suspend() {
      if (out && out.ctx.state === 'running') out.ctx.suspend().catch(() => {});
    },
  };
}

/**
 * One note on `out`: an oscillator of `type` at `freq` Hz (gliding to `to` if given),
 * starting `at` seconds from now, with a fast attack and an exponential
 * decay to silence over `dur` seconds, peaking at `gain`.
 */
function note({ ctx, master }, { freq, to = null, at = 0, dur = 0.15, type = 'sine', gain = 0.2, attack = 0.006 }) {
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const env = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, start + dur);
  env.gain.setValueAtTime(0.0001, start);
  env.gain.exponentialRampToValueAtTime(gain, start + attack);
  env.gain.exponentialRampToValueAtTime(0.0001, start + dur);
  osc.connect(env);
  env.connect(master);
  osc.start(start);
  osc.stop(start + dur + 0.03);
  osc.onended = () => {
    osc.disconnect();
    env.disconnect();
  };
}

/** The sounds, by name: each plays on an Output, from an optional start offset in seconds. */
export const SOUNDS = {
  /** A soft wooden click; X's a shade higher than O's. */
  move(out, at = 0, side = 'x') {
    const base = side === 'o' ? 520 : 600;
    note(out, { freq: base * 1.6, to: base, at, dur: 0.07, type: 'triangle', gain: 0.14, attack: 0.003 });
    note(out, { freq: base * 3.2, at, dur: 0.025, type: 'sine', gain: 0.04, attack: 0.002 });
  },
  /** A small bell: a fifth, with a quiet octave shimmer. */
  board(out, at = 0) {
    note(out, { freq: 987.8, at, dur: 0.5, gain: 0.12 });
    note(out, { freq: 1480, at: at + 0.07, dur: 0.55, gain: 0.1 });
    note(out, { freq: 2960, at: at + 0.07, dur: 0.25, gain: 0.025 });
  },
  /** A rising major arpeggio ending on a held octave. */
  win(out, at = 0) {
    const steps = [523.3, 659.3, 784, 1046.5];
    steps.forEach((freq, i) => {
      const last = i === steps.length - 1;
      note(out, { freq, at: at + i * 0.11, dur: last ? 0.7 : 0.18, type: 'triangle', gain: last ? 0.2 : 0.16 });
    });
    note(out, { freq: 1318.5, at: at + 0.33, dur: 0.6, gain: 0.06 });
  },
  /** Two falling notes, low and soft: a loss. */
  loss(out, at = 0) {
    note(out, { freq: 392, at, dur: 0.28, type: 'triangle', gain: 0.15 });
    note(out, { freq: 311.1, at: at + 0.22, dur: 0.55, type: 'triangle', gain: 0.14 });
  },
  /** One low, level tone: a draw. */
  draw(out, at = 0) {
    note(out, { freq: 349.2, at, dur: 0.5, type: 'triangle', gain: 0.14 });
    note(out, { freq: 261.6, at, dur: 0.5, type: 'sine', gain: 0.08 });
  },
};

/**
 * Wires the Sounds checkbox (`#opt-sound` in the Game pane) and plays the
 * sounds of the controller's changes: each move played, a small board won,
 * the game's end. Returns `{set(on)}`.
 * @param {Controller} controller
 */
export function initSound(controller) {
  let enabled = loadChoice();
  const speaker = createSpeaker();
  const play = (name, ...args) => enabled && speaker.play(name, ...args);
  const box = input('opt-sound');
  const draw = () => {
    if (box) box.checked = enabled;
  };
  const set = (on) => {
    enabled = Boolean(on);
    saveChoice(enabled);
    draw();
    if (enabled) {
      // This is a gesture: the context may start now, and a click says sound is on.
      speaker.wake();
      play('move');
    } else {
      speaker.suspend();
    }
  };
  draw();
  box?.addEventListener('change', () => set(box.checked));
  // The first gesture after sound is on starts the audio (a saved 'on' from an earlier visit).
  for (const type of ['pointerdown', 'keydown']) {
    document.addEventListener(type, () => {
      if (enabled && speaker.asleep()) speaker.wake();
    }, { capture: true });
  }

  controller.subscribe((change) => {
    if (!('game' in change)) return;
    const { game, step } = change;
    if (change.played && step) {
      play('move', 0, step.side);
      // A small board won (not by the last move: the game's own sound follows).
      const won = game.kind === 'ultimate' && (step.decided === 'x' || step.decided === 'o');
      if (won && !game.over) play('board', 0.06);
    }
    if (change.ended) {
      const winner = game.result !== 'draw' && (game.mode !== 'ai' || game.result === game.humanSide);
      play(game.result === 'draw' ? 'draw' : winner ? 'win' : 'loss', 0.12);
    }
  });
  return { set };
}
