// A story step on a phone (390 x 844) before Run: the controls panel shows every control whole,
// none cut at its foot (it grows to its content before the answer, App::frame); and the story's
// last step names its summary as the canvas does ("What you saw", page::kSummaryHeading) in the
// text twin, without the placeholder once the answer shows; after Run a finger dragged over a plot
// scrolls the results, as over their background. Env: see browser.mjs.
import test from 'node:test';
import assert from 'node:assert';
import { afterFrames, openUrl, screenshotMeasure, useBrowser } from './browser.mjs';

const env = useBrowser();
const rect = (page) => page.evaluate(() => JSON.parse(window.attnlab.appQuestionRect()));

test('on a phone every control of a story step shows whole before Run', async () => {
  // Mirror 1: its text, question, three choices and two controls (the log-domain checkbox was cut).
  for (const [story, step] of [['mirror', 1], ['regression', 4], ['separation', 2]]) {
    const { page, errors } = await openUrl(env.browser, `${env.base}#story=${story}&step=${step}`, { width: 390, height: 844 });
    await afterFrames(page, 8);
    const r = await rect(page);
    assert.ok(r.controlsWhole, `${story} ${step}: a control is cut at the panel's foot (${JSON.stringify(r)})`);
    assert.ok(r.visible, `${story} ${step}: the question is in sight`);
    assert.deepStrictEqual(errors, []);
    await page.close();
  }
});

test('the last step\'s summary is "What you saw" in the twin too, and the placeholder goes', async () => {
  const { page, errors } = await openUrl(env.browser, `${env.base}#story=multihead&step=4`);
  await page.evaluate(() => window.attnlab.appPredict(0));
  await page.evaluate(() => window.attnlab.appRun());
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 120000 });
  await page.waitForFunction(() => document.querySelector('#twin-summary'), null, { timeout: 10000 });
  const heads = await page.evaluate(() => [...document.querySelectorAll('#twin h4')].map((h) => h.textContent));
  assert.ok(heads.includes('What you saw'), `twin headings: ${heads}`);
  assert.ok(!heads.includes('Summary'), `twin headings: ${heads}`);
  const text = await page.textContent('#twin');
  assert.ok(!text.includes('The answer shows once the run is done.'), 'the placeholder beside the answer');
  assert.deepStrictEqual(errors, []);
  await page.close();
});

// A 390 x 844 touch phone on `hash`, ready; its page errors collected.
async function openTouchPhone(hash) {
  const page = await env.browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${env.base}#${hash}`);
  await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30000 });
  return { page, errors };
}

// Walk 9: the results on a phone are mostly plots, and a swipe that began on one did not scroll them
// (the plot took the finger as a button's press), so the answer's second plot was out of reach.
test('on a phone a finger dragged over a plot scrolls the results', async () => {
  const { page, errors } = await openTouchPhone('story=separation&step=3');
  await page.evaluate(() => window.attnlab.appPredict(0));
  await page.evaluate(() => window.attnlab.appRun());
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 120000 });
  await afterFrames(page, 8);
  // The lower part of the screen: the results, whose first plot (Success rate) starts near y = 600.
  const lower = (d, w, h) => {
    let sum = 0;
    for (let i = 4 * w * Math.floor(0.7 * h); i < 4 * w * h; i += 4) sum += d[i] * 3 + d[i + 1] * 7 + d[i + 2];
    return sum;
  };
  const before = await screenshotMeasure(page, lower);
  const cdp = await page.context().newCDPSession(page);
  const at = { x: 200, y: 700 };  // inside the plot's data area
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at] });
  for (let k = 1; k <= 10; ++k) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: at.x, y: at.y - 12 * k }] });
    await afterFrames(page, 1);  // one move a frame, as a finger gives them
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await afterFrames(page, 8);  // the lifted finger's hover read-out gone
  assert.notStrictEqual(await screenshotMeasure(page, lower), before, 'a drag over a plot did not scroll the results');
  assert.deepStrictEqual(errors, []);
  await page.close();
});

// Walk 16: a long swipe that began on the results and went on over the story panel scrolled the
// story too. The swipe stays with the panel it began on.
test('on a phone a swipe that began on the results never scrolls the story panel', async () => {
  const { page, errors } = await openTouchPhone('story=separation&step=3');
  await page.evaluate(() => { window.attnlab.appPredict(0); window.attnlab.appRun(); });
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 120000 });
  await afterFrames(page, 12);
  const story = async () => JSON.parse(await page.evaluate(() => window.attnlab.appQuestionRect()));
  const before = await story();
  const cdp = await page.context().newCDPSession(page);
  const at = { x: 200, y: 780 };  // on the results, low on the screen
  assert.ok(at.y > before.panelBottom, `the swipe starts below the story panel (its foot at ${before.panelBottom})`);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at] });
  let end = at.y;
  for (let k = 1; end > before.panelTop + 40; ++k) {
    end = at.y - 15 * k;  // up to over the story panel's top
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: at.x, y: end }] });
    await afterFrames(page, 1);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await afterFrames(page, 8);
  const after = await story();
  assert.strictEqual(after.y, before.y, `the story panel scrolled by ${before.y - after.y} px under a swipe that began on the results`);
  assert.deepStrictEqual(errors, []);
  await page.close();
});
