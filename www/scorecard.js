// @ts-check
// What a screen reader hears of the score card (#players): each chip in
// words ("You (X). Wins: 0", "Draws: 0", "AI Medium (O). Wins: 0"), not its
// pieces run together ("You 0 Draws 0 0 AI · Medium"). The visible name and
// number are hidden from assistive technology and a visually hidden reading
// goes first in each chip; online, a chip's clock stays readable after its
// reading ("You (X). Time left:" then "4:32"), since onlinepanel.js ticks it.

import { t } from './i18n.js';
import { el } from './dom.js';

/** Who plays `side` ('x' | 'o'), in words, side included. */
function who(settings, online, side) {
  const mark = side.toUpperCase();
  const ai = (level) => t('players.side', { name: t('players.ai', { level: t(`level.${level}`) }), side: mark });
  if (online) {
    if (!online.side) return t(`player.${side}`);
    return t('players.side', { name: t(online.side === side ? 'player.you' : 'player.friend'), side: mark });
  }
  switch (settings.mode) {
    case 'ai-x':
    case 'ai-o': {
      const mine = settings.mode === 'ai-x' ? 'x' : 'o';
      return side === mine ? t('players.side', { name: t('player.you'), side: mark }) : ai(settings.level);
    }
    case 'watch':
      return ai(side === 'x' ? settings.level : settings.levelO);
    default:
      return t(`player.${side}`);
  }
}

/**
 * Puts `text` in `host`'s reading (made on first use, as its first child,
 * with the host's other children but its clock hidden from assistive
 * technology).
 */
function setReading(host, text) {
  let reading = host.querySelector(':scope > .score-reading');
  if (!reading) {
    reading = el('span', { class: 'visually-hidden score-reading' });
    for (const child of host.children) {
      if (!child.classList.contains('player-clock')) child.setAttribute('aria-hidden', 'true');
    }
    host.prepend(reading);
  }
  if (reading.textContent !== text) reading.textContent = text;
}

/** Writes the score card's reading from the controller's page state (see renderChrome). */
export function readScoreCard({ settings, online, scores }) {
  const clocks = Boolean(online?.roomState?.clock);
  for (const side of ['x', 'o']) {
    const chip = document.querySelector(`#players .player[data-side="${side}"]`);
    if (!chip) continue;
    const name = who(settings, online, side);
    let text = t('players.wins', { who: name, wins: scores[side] });
    if (online) text = clocks ? t('players.clock', { who: name }) : name;
    setReading(chip, text);
  }
  const draws = document.querySelector('#players .player-draws');
  if (draws) setReading(draws, t('players.draws', { draws: scores.draw }));
}
