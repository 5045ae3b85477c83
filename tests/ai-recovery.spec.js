// The AI never hangs: a worker that dies in any way, even quietly (closed
// while idle, or closing itself before it reads a question: no error event),
// is replaced and the move asked again; a worker that keeps dying is given
// up on with a message, never an endless "thinking".

import { test, expect } from './support/fixtures.js';
import { open, cell, markCount, expectMarks, aiIdle } from './game-helpers.js';

/** Stores settings before the page loads, so no settings form is needed. */
async function useSettings(page, level) {
  await page.addInitScript((data) => {
    localStorage.setItem('uttt.settings', JSON.stringify({ v: 1, data }));
  }, { kind: 'ultimate', mode: 'ai-x', level, rules: 'standard' });
}

/** The page's AI worker (there is one at a time). */
async function aiWorker(page) {
  await expect.poll(() => page.workers().filter((w) => w.url().endsWith('/www/worker.js')).length).toBe(1);
  return page.workers().find((w) => w.url().endsWith('/www/worker.js'));
}

/** Closes `worker` from inside (`self.close()`) and waits until it is gone. */
async function closeWorker(worker) {
  const gone = new Promise((resolve) => worker.once('close', resolve));
  // The evaluation may never answer: its worker is gone.
  worker.evaluate(() => self.close()).catch(() => {});
  await gone;
}

/** Clicks an empty cell of a playable small board. */
async function playSomewhere(page) {
  const target = await page.locator('#board button[data-board][data-cell]').evaluateAll((cells) => {
    const open = cells.find((c) => !c.dataset.mark && c.closest('.small[data-playable="true"]'));
    return open ? { board: open.dataset.board, cell: open.dataset.cell } : null;
  });
  expect(target).not.toBeNull();
  await cell(page, target.board, target.cell).click();
}

/** The player's first move and the AI's answer: the worker is loaded and idle. */
async function firstExchange(page) {
  await open(page);
  await cell(page, 4, 4).click();
  await expectMarks(page, 2, { timeout: 15_000 });
  await aiIdle(page);
}

test('a worker closed while idle is replaced, and the AI still answers the next move', async ({ page }) => {
  await useSettings(page, 'beginner');
  await firstExchange(page);
  await closeWorker(await aiWorker(page));

  const asked = Date.now();
  await playSomewhere(page);
  await expect.poll(() => markCount(page)).toBeGreaterThanOrEqual(3);
  // Noticed by the missing acknowledgement (3 s), then answered by a new worker.
  await expectMarks(page, 4, { timeout: 15_000 });
  expect(Date.now() - asked).toBeLessThan(12_000);
  await aiIdle(page);
  await expect(page.locator('#status')).not.toHaveAttribute('data-tone', 'error');
  await expect(page.locator('#status')).toContainText('Your turn (X)');
  await expect.poll(() => page.workers().filter((w) => w.url().endsWith('/www/worker.js')).length).toBe(1);
});

test('a worker that closes itself with the question still unread is replaced, and the AI still answers', async ({ page }) => {
  await useSettings(page, 'hard');
  await firstExchange(page);
  const worker = await aiWorker(page);
  // The worker is kept busy, then closes itself: the question sent meanwhile
  // waits in its queue and is dropped unread, with no error and no answer.
  const busy = new Promise((resolve) => worker.on('console', (m) => m.text() === 'test: busy' && resolve()));
  const gone = new Promise((resolve) => worker.once('close', resolve));
  worker.evaluate(() => {
    console.log('test: busy');
    const until = Date.now() + 2000;
    while (Date.now() < until);
    self.close();
  }).catch(() => {});
  await busy;

  const asked = Date.now();
  await playSomewhere(page);
  await gone;
  await expectMarks(page, 4, { timeout: 20_000 });
  // The rest of the busy time, the acknowledgement deadline (3 s), a new
  // worker and its 64 MiB engine, then Hard's 1 s budget.
  expect(Date.now() - asked).toBeLessThan(15_000);
  await aiIdle(page);
  await expect(page.locator('#status')).not.toHaveAttribute('data-tone', 'error');
  await expect(page.locator('#status')).toContainText('Your turn (X)');
});

test.describe('when every worker dies quietly', () => {
  // The offline service worker would answer the worker's request itself,
  // out of reach of page.route.
  test.use({ serviceWorkers: 'block' });

  test('the page gives up after a few attempts with a message, then the AI works again once it can', async ({ page }) => {
    test.setTimeout(60_000);
    await useSettings(page, 'beginner');
    // Every worker loads, then closes itself on its first question.
    let served = 0;
    const stub = "postMessage({ type: 'ready' }); self.addEventListener('message', (e) => { if (e.data && e.data.type === 'search') self.close(); });";
    await page.route('**/www/worker.js', async (route) => {
      served += 1;
      await route.fulfill({ contentType: 'text/javascript', body: stub });
    });
    await open(page);
    const asked = Date.now();
    await cell(page, 4, 4).click();
    // Three attempts of 3 s each, with short pauses: then the page says so.
    await expect(page.locator('#status')).toHaveAttribute('data-tone', 'error', { timeout: 20_000 });
    await expect(page.locator('#status')).toContainText('The AI is not available');
    expect(Date.now() - asked).toBeLessThan(16_000);
    expect(served).toBe(3);
    await expect(cell(page, 4, 4)).toHaveAttribute('data-mark', 'x');
    await expectMarks(page, 1);

    // Once a working worker can load, a click on the board asks the AI again.
    await page.unroute('**/www/worker.js');
    await playSomewhere(page);
    await expectMarks(page, 2, { timeout: 15_000 });
    await aiIdle(page);
    await expect(page.locator('#status')).toContainText('Your turn (X)');
  });
});
