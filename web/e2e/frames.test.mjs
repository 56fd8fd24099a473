// Browser tests of the frames drawn on demand (docs/design.md "Frames on demand"): a slow machine
// still gets the frames that act on a key, a run on workers with nobody at the page draws a few
// frames a second, and input during a run draws every frame. A drawn frame is a clear of the
// canvas (the page clears once per frame it draws), counted by a wrapper installed before the load.
import test from 'node:test';
import assert from 'node:assert';
import { afterFrames, arrowToCanvasControl, countDrawnFrames, openUrl, useBrowser } from './browser.mjs';

const env = useBrowser();

// Drawn frames and animation frames of the page while `action()` runs.
async function framesDuring(page, action) {
  // Each call counts on a chain of its own: an earlier call's last tick, still pending when this
  // one starts within the same frame, would otherwise count every frame a second time.
  await page.evaluate(() => {
    window.animationFrames = 0;
    const chain = (window.frameChain || 0) + 1;
    window.frameChain = chain;
    const tick = () => { if (window.frameChain !== chain) return; ++window.animationFrames; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
    window.drawnFrom = window.drawnFrames.length;
  });
  const t0 = Date.now();
  await action();
  const seconds = (Date.now() - t0) / 1000;
  const { drawn, animation } = await page.evaluate(() => {
    ++window.frameChain;
    return { drawn: window.drawnFrames.length - window.drawnFrom, animation: window.animationFrames };
  });
  return { drawn, animation, seconds };
}

const longRun = 'exp=mirror&preset=synthetic_figure&threads=1';
const running = () => window.attnlab.appState() === 'running' && window.attnlab.appProgress() > 0;

test('on a slow machine, Enter alone starts the text field\'s editing', async () => {
  const { page, errors } = await openUrl(env.browser, env.base + '#exp=separation.toy&preset=fig3b&seed=1&trials=20');
  await page.focus('#canvas');
  await afterFrames(page, 4);
  // The arrows to the seed field (Tab leaves the canvas: docs/design.md "Keyboard and screen reader").
  const met = await arrowToCanvasControl(page, 'seed');
  assert.strictEqual(met[met.length - 1], 'seed', `the arrows reach the seed field (met: ${met.join(', ')})`);
  // Every frame 20 times slower: the frames after the key come far apart, as on a loaded machine.
  // ImGui takes the key over several frames (the press, then the field's activation).
  const cdp = await page.context().newCDPSession(page);
  // The throttle is undone whatever happens: pages of one site share a renderer process, and a
  // throttled one left open slows the next test's page too.
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 20 });
  try {
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.attnlab.appTextInput(), null, { timeout: 90000, polling: 500 });
  } finally {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  }
  assert.strictEqual(await page.evaluate(() => window.attnlab.appFocusedControl()), 'seed');
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('a run on workers with nobody at the page draws a few frames a second; the mouse draws every frame', async () => {
  const { page, errors } = await openUrl(env.browser, env.base + '#' + longRun, { setup: countDrawnFrames });
  await page.evaluate(() => window.attnlab.appRun());
  await page.waitForFunction(running, null, { timeout: 120000, polling: 100 });
  await page.mouse.move(5, 5);
  // The input's own frames are over (docs/design.md: 1 s and at least 30 frames).
  await page.waitForTimeout(1000);
  await afterFrames(page, 35);
  const idle = await framesDuring(page, () => page.waitForTimeout(3000));
  const stillRunning = await page.evaluate(() => window.attnlab.appState() === 'running');
  if (stillRunning) {
    // At most one frame per 0.25 s (and one more at either end), and the progress bar moves.
    assert.ok(idle.drawn <= Math.ceil(idle.seconds / 0.25) + 2, `${idle.drawn} frames drawn in ${idle.seconds} s without input`);
    assert.ok(idle.drawn >= 1, `no frame drawn in ${idle.seconds} s of a run`);
  }
  const mouse = await framesDuring(page, async () => {
    for (let k = 0; k < 60; ++k) await page.mouse.move(640 + 200 * Math.cos(k / 6), 420 + 120 * Math.sin(k / 6));
  });
  // Input draws in every animation frame: allow the frames before the first move reached the page.
  assert.ok(mouse.drawn >= 0.8 * mouse.animation - 2,
    `${mouse.drawn} frames drawn of ${mouse.animation} animation frames while the mouse moved`);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('during a run the text twin moves its progress bar several times a second but rebuilds its results at most every 2 s', async () => {
  const { page, errors } = await openUrl(env.browser, env.base + '#' + longRun);
  await page.evaluate(() => window.attnlab.appRun());
  await page.waitForFunction(running, null, { timeout: 120000, polling: 100 });
  // Count the twin's rebuilds of the results (each reads the run's whole JSON) and the progress
  // values its bar shows, for 4 s of the run.
  await page.evaluate(() => {
    window.resultsBuilt = 0;
    const appJson = window.attnlab.appJson;
    window.attnlab.appJson = (...args) => (++window.resultsBuilt, appJson(...args));
    window.barValues = new Set();
    window.barWatch = setInterval(() => window.barValues.add(document.querySelector('.twin progress')?.value), 100);
  });
  await page.waitForTimeout(4000);
  const seen = await page.evaluate(() => {
    clearInterval(window.barWatch);
    return { built: window.resultsBuilt, bar: window.barValues.size, running: window.attnlab.appState() === 'running' };
  });
  if (seen.running) {
    assert.ok(seen.built <= 3, `the results were rebuilt ${seen.built} times in 4 s of a run`);
    assert.ok(seen.bar >= 4, `the progress bar showed ${seen.bar} values in 4 s of a run`);
  }
  // The finished run's results show at once (within a poll), not up to 2 s later.
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 120000, polling: 50 });
  const doneAt = Date.now();
  await page.waitForFunction(() => /the run complete/.test(document.querySelector('.twin').textContent), null, { timeout: 5000, polling: 20 });
  assert.ok(Date.now() - doneAt < 1000, `the finished run's results showed ${Date.now() - doneAt} ms after it finished`);
  assert.deepStrictEqual(errors, []);
  await page.close();
});
