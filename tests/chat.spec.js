// The room's chat through the real uttt-server that serves these tests:
// two players (one on the Chinese page) and a watcher, as three strangers.
// Presets are said in each page's language; the watchers' chat and the
// players' never meet; typed words show only once turned on, and as text;
// one tap mutes a person or the whole chat; a line is reported.

import { test, expect } from './support/fixtures.js';
import { open, showTab, person, myName } from './game-helpers.js';

const root = (page) => page.locator('html');
const lines = (page) => page.locator('[data-chat-message]');

test('players and watchers chat apart, in their languages, with mute and report', async ({ page, browser }) => {
  const errors = [];
  await open(page);
  await showTab(page, 'online');
  await page.locator('[data-action="online-create"]').click();
  await expect(root(page)).toHaveAttribute('data-online-state', 'waiting');
  const link = await page.locator('[data-online-link]').getAttribute('href');
  const friend = await person(browser, errors, { context: { locale: 'zh-CN' } });
  await friend.page.goto(link);
  await expect(root(friend.page)).toHaveAttribute('data-online-state', 'playing');
  const fan = await person(browser, errors);
  await fan.page.goto(link);
  await expect(fan.page.locator('.chat-heading')).toHaveText('Spectators’ chat');
  await showTab(friend.page, 'online');
  await expect(page.locator('.chat-heading')).toHaveText('Chat with your opponent');

  // A preset, in each player's language; the watcher hears nothing of it.
  await page.locator('[data-chat-preset="goodLuck"]').click();
  const mine = await myName(page);
  await expect(lines(page)).toHaveText([`${mine}: Good luck!`]);
  await expect(lines(friend.page)).toHaveCount(1);
  await expect(lines(friend.page).locator('.chat-said')).toHaveText('祝你好运！');
  await expect(lines(page).locator('[data-action="chat-mute"]')).toHaveCount(0);

  // The watcher's line stays among the watchers.
  await fan.page.locator('[data-chat-preset="wellPlayed"]').click();
  await expect(lines(fan.page)).toHaveText([/^\S+: Well played!$/]);
  await expect(lines(page)).toHaveCount(1);

  // Typed words: shown only where turned on, and as text, never markup or a link.
  const typed = '<b>hi</b> see https://example.org';
  await page.locator('#chat-typed').check();
  await page.locator('#chat-text').fill(typed);
  await page.locator('[data-action="chat-send"]').click();
  await expect(lines(page)).toHaveCount(2);
  await expect(lines(page).nth(1).locator('.chat-said')).toHaveText(typed);
  await expect(lines(page).locator('b, a')).toHaveCount(0);
  await expect(lines(friend.page)).toHaveCount(1);
  await expect(friend.page.locator('#chat-text')).toBeHidden();
  await friend.page.locator('#chat-typed').check();
  await expect(lines(friend.page)).toHaveCount(2);
  await expect(lines(friend.page).nth(1).locator('.chat-said')).toHaveText(typed);

  // Report, then one tap mutes the player; their next line stays unseen.
  const first = lines(friend.page).first();
  await first.locator('[data-action="chat-report"]').click();
  await expect(first.locator('[data-action="chat-report"]')).toHaveText('已举报');
  await expect(first.locator('[data-action="chat-report"]')).toBeDisabled();
  await first.locator('[data-action="chat-mute"]').click();
  await expect(lines(friend.page)).toHaveCount(0);
  await page.locator('[data-chat-preset="thanks"]').click();
  await expect(lines(page)).toHaveCount(3);
  await expect(lines(friend.page)).toHaveCount(0);
  await friend.page.locator('[data-action="chat-unmute"]').click();
  await expect(lines(friend.page)).toHaveCount(3);

  // The whole chat muted: no lines, no presets; and back.
  await friend.page.locator('[data-action="chat-mute-all"]').click();
  await expect(friend.page.locator('[data-chat-preset]').first()).toBeHidden();
  await expect(lines(friend.page).first()).toBeHidden();
  await friend.page.locator('[data-action="chat-mute-all"]').click();
  await expect(lines(friend.page)).toHaveCount(3);
  expect(errors).toEqual([]);
  await friend.context.close();
  await fan.context.close();
});
