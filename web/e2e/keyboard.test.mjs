// The keyboard and the screen reader beyond axe (docs/design.md, "Keyboard and screen reader"):
// a walk that enters an embed from a host page by Tab, completes the first step of every story and
// leaves by Tab (keys counted, a table per story); Tab never stays on the canvas; Esc lands on the
// twin's control matching the canvas's focus; the twin holds still during a run (no focus or blur
// on a focused control); the focus goes to the step's title after "Start the story", Next and Back;
// the live region says short things, once each. Env: see browser.mjs.
import test from 'node:test';
import assert from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterFrames, openUrl, useBrowser } from './browser.mjs';
import { serveDirectory } from './static_server.mjs';

const env = useBrowser();

// The first story step that asks for a chosen prediction and waits for Run.
async function predictionStep() {
  const { page } = await openUrl(env.browser, env.base);
  const stories = JSON.parse(await page.evaluate(() => window.attnlab.listStories()));
  await page.close();
  for (const s of stories) {
    const k = s.steps.findIndex((st) => st.prediction && st.prediction.choices.length && !st.run);
    if (k >= 0) return { story: s.id, step: k + 1, steps: s.steps.length };
  }
  throw new Error('no story step with a chosen prediction');
}

// The element with the keyboard focus, across the host page and the lab's frame.
async function focusedAt(page, frame) {
  const host = await page.evaluate(() => document.activeElement.tagName + '#' + document.activeElement.id);
  if (host !== 'IFRAME#lab') return 'host:' + host;
  return 'lab:' + await frame.evaluate(() => {
    const a = document.activeElement;
    return a.tagName + '#' + a.id + (a.dataset.act ? '[' + a.dataset.act + ']' : '') + (a.name ? '@' + a.name : '');
  });
}

// One story step walked with keys only in a page that embeds the lab cross-origin: Tab in from the
// host's link before the frame, predict (Space on the first choice), Run (Enter), the answer shown,
// Tab out to the host's link after it. Returns the keys to a finished run and with leaving.
async function walkStep(host, story, step) {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // localhost, not 127.0.0.1: another origin than the lab's, as a course page's iframe is.
  await page.goto(`http://localhost:${host.address().port}/${story}-${step}.html`);
  const frame = await (await page.waitForSelector('#lab')).contentFrame();
  await frame.waitForFunction(() => document.body.dataset.ready === '1' && window.attnlab.twinRender !== undefined, null, { timeout: 30000 });
  await frame.waitForFunction((k) => JSON.parse(window.attnlab.appPageJson()).story?.step === k, step);
  await page.focus('#before');
  let keys = 0;
  const press = async (key) => { keys++; await page.keyboard.press(key); await afterFrames(frame, 2); };
  // Tab (or Shift+Tab) until the focus is where `want` says; each press counted.
  const tabTo = async (want, key = 'Tab', limit = 60) => {
    for (let i = 0; i < limit; i++) {
      const now = await focusedAt(page, frame);
      if (want(now)) return now;
      await press(key);
    }
    throw new Error(`${story}: the focus never got there (last: ${await focusedAt(page, frame)})`);
  };
  await press('Tab');
  assert.strictEqual(await focusedAt(page, frame), 'lab:CANVAS#canvas', `${story}: Tab from the host page enters the canvas`);
  // The keyboard's arrival gives the canvas's focus to the prediction (StoryPanel::focus_prediction).
  await frame.waitForFunction(() => window.attnlab.appFocusedControl() === 'choice:0', null, { timeout: 5000 });
  // On the canvas from the keyboard: a ring and the keys, visible.
  const shown = await frame.evaluate(() => {
    const c = getComputedStyle(document.getElementById('canvas'));
    const hint = document.getElementById('canvas-keys');
    return { outline: c.outlineStyle + ' ' + c.outlineWidth, hint: getComputedStyle(hint).display, text: hint.textContent };
  });
  assert.strictEqual(shown.outline, 'solid 4px', 'the canvas draws a focus ring');
  assert.notStrictEqual(shown.hint, 'none', 'the keys are shown while the canvas has the focus');
  assert.match(shown.text, /Tab.* skips the canvas/);
  // Tab leaves the canvas at once (no trap): into the text twin, which shows while it has the focus.
  await press('Tab');
  assert.match(await focusedAt(page, frame), /^lab:(BUTTON|INPUT|SELECT)/, `${story}: Tab left the canvas for the twin`);
  assert.ok(await frame.evaluate(() => document.getElementById('twin').getBoundingClientRect().width > 300), 'the twin shows');
  // Predict: Tab to the radio group, Space picks the first choice.
  await tabTo((f) => f.includes('@twin-prediction'));
  await press('Space');
  await frame.waitForFunction(() => JSON.parse(window.attnlab.appPageJson()).story.prediction.predicted === 0);
  // Run (under the prediction, as on the canvas): Tab, Enter.
  await tabTo((f) => f.includes('#twin-step-run'));
  await press('Enter');
  // The step's Run goes as the run starts: the focus moves to the toolbar's Run (Pause), not <body>.
  await frame.waitForFunction(() => document.activeElement?.id === 'twin-run', null, { timeout: 5000 });
  await frame.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 120000 });
  await frame.waitForFunction(() => (document.getElementById('twin-answer')?.textContent || '').length > 20, null, { timeout: 10000 });
  const answer = await frame.evaluate(() => document.getElementById('twin-answer').getBoundingClientRect());
  assert.ok(answer.width > 0 && answer.height > 0, `${story}: the answer is shown`);
  const done = keys;
  // Leave by Tab: out of the frame to the host page's next link.
  await tabTo((f) => f === 'host:A#after', 'Tab', 120);
  assert.deepStrictEqual(errors, []);
  return { page, frame, done, total: keys };
}

test('keyboard walk: Tab into an embed from a host page, the first step of every story (predict, Run), Tab out; no trap', async () => {
  const probe = await openUrl(env.browser, env.base);
  const stories = JSON.parse(await probe.page.evaluate(() => window.attnlab.listStories()));
  await probe.page.close();
  assert.deepStrictEqual(stories.map((s) => s.id), ['separation', 'regression', 'mirror', 'multihead']);
  const dir = mkdtempSync(path.join(tmpdir(), 'attnlab-host-'));
  for (const s of stories) {
    writeFileSync(path.join(dir, `${s.id}-1.html`), `<!doctype html><html lang="en"><title>Course</title><main><h1>Week 3</h1>
    <a id="before" href="#a">Reading</a>
    <iframe id="lab" title="Attention Lab" width="960" height="640" src="${env.base}#story=${s.id}&step=1&embed=1"></iframe>
    <a id="after" href="#b">Quiz</a></main></html>`);
  }
  const host = await serveDirectory(dir);
  const table = [];
  for (const s of stories) {
    assert.ok(s.steps[0].prediction?.choices.length && !s.steps[0].run, `${s.id} step 1 asks for a chosen prediction and waits for Run`);
    const walked = await walkStep(host, s.id, 1);
    table.push({ story: s.id, step: 1, ...walked });
    if (table.length < stories.length) { await walked.page.close(); continue; }
    // And back, once: Shift+Tab from the host's next link goes into the lab and, from the canvas, out again.
    const { page, frame } = walked;
    await page.focus('#before');
    await page.keyboard.press('Tab');
    await page.waitForFunction(() => document.activeElement.id === 'lab', null, { timeout: 5000 }).catch(() => {});
    await afterFrames(frame, 2);
    assert.strictEqual(await focusedAt(page, frame), 'lab:CANVAS#canvas');
    await page.keyboard.press('Shift+Tab');
    await page.waitForFunction(() => document.activeElement.id !== 'lab', null, { timeout: 5000 }).catch(() => {});
    assert.strictEqual(await focusedAt(page, frame), 'host:A#before', 'Shift+Tab from the canvas leaves the frame');
    await page.close();
  }
  console.log('keys to walk a story step from a host page by keyboard alone\n| story | step | keys to a finished run | with Tab out |\n|---|---|---|---|\n' +
    table.map((r) => `| ${r.story} | ${r.step} | ${r.done} | ${r.total} |`).join('\n'));
  host.close();
  rmSync(dir, { recursive: true });
});

// The canvas's own keyboard path in a story step (README, "Keyboard"): from the page's load, the
// first arrow key lands on the prediction's first choice, Space picks it, the arrows go down to the
// step's Run, Enter runs, and the answer shows in the panel. Keys only, every story's first step.
test('on the canvas, keys alone: the first arrow lands on the prediction, Space picks, down to Run, Enter runs', async () => {
  const probe = await openUrl(env.browser, env.base);
  const stories = JSON.parse(await probe.page.evaluate(() => window.attnlab.listStories()));
  await probe.page.close();
  const table = [];
  for (const s of stories) {
    const { page, errors } = await openUrl(env.browser, env.base + `#story=${s.id}&step=1`);
    const at = () => page.evaluate(() => window.attnlab.appFocusedControl());
    const press = async (key) => {
      const was = await at();
      await page.keyboard.press(key);
      await page.waitForFunction((w) => window.attnlab.appFocusedControl() !== w, was, { timeout: 1500 }).catch(() => {});
      await afterFrames(page, 2);
    };
    await press('ArrowDown');
    assert.strictEqual(await at(), 'choice:0', `${s.id}: the first arrow key lands on the prediction's first choice`);
    await page.keyboard.press('Space');
    await page.waitForFunction(() => JSON.parse(window.attnlab.appPageJson()).story.prediction.predicted === 0, null, { timeout: 5000 });
    const met = ['choice:0'];
    for (let i = 0; i < 8 && met[met.length - 1] !== 'step-run'; i++) await press('ArrowDown'), met.push(await at());
    assert.strictEqual(met[met.length - 1], 'step-run', `${s.id}: the arrows go down from the choices to Run (met: ${met.join(', ')})`);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 120000 });
    await page.waitForFunction(() => JSON.parse(window.attnlab.appQuestionRect()).answerVisible, null, { timeout: 10000 });
    // Walk 18: the focus vanished with the Run button; it now waits on "Next >", the answer still in view.
    await page.waitForFunction(() => window.attnlab.appFocusedControl() === 'Next', null, { timeout: 5000 })
      .catch(() => {});
    assert.strictEqual(await at(), 'Next', `${s.id}: after a run by the keyboard, "Next >" has the focus`);
    assert.ok(JSON.parse(await page.evaluate(() => window.attnlab.appQuestionRect())).answerVisible,
      `${s.id}: the answer stays in view`);
    table.push(`| ${s.id} | ${met.length + 2} |`);
    assert.deepStrictEqual(errors, []);
    await page.close();
  }
  console.log('keys on the canvas from the load to a run (arrow, Space, arrows, Enter)\n| story | keys |\n|---|---|\n' + table.join('\n'));
});

// Walk 13: Arrow Up from the results reached "Attention Lab", and a Space there left the answered
// step for the start page without a word. Now the page asks, Stay first (Space, Enter or Escape keep
// the step and its run); "Go to the start page" leaves.
test('leaving an answered step for the start page asks first; Stay keeps the run', async () => {
  const { page, errors } = await openUrl(env.browser, env.base + '#story=separation&step=1');
  await page.evaluate(() => { window.attnlab.appPredict(0); window.attnlab.appRun(); });
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 120000 });
  const at = () => page.evaluate(() => window.attnlab.appFocusedControl());
  const upToHome = async () => {  // Arrow Up, as the walker went (the first key shows the focus)
    const met = [];
    for (let i = 0; i < 12 && met[met.length - 1] !== 'Home'; i++) {
      await page.keyboard.press('ArrowUp');
      await afterFrames(page, 3);
      met.push(await at());
    }
    assert.strictEqual(met[met.length - 1], 'Home', `Arrow Up reaches "Attention Lab" (met: ${met.join(', ')})`);
  };
  for (const keep of ['Space', 'Escape']) {
    await upToHome();
    await page.keyboard.press('Space');
    await page.waitForFunction(() => window.attnlab.appFocusedControl() === 'Stay', null, { timeout: 5000 });
    await afterFrames(page, 4);
    await page.keyboard.press(keep);
    await afterFrames(page, 6);
    assert.match(await page.evaluate(() => location.hash), /story=separation/, `${keep} in the question keeps the step`);
    assert.strictEqual(await page.evaluate(() => window.attnlab.appState()), 'done', `${keep}: the run is kept`);
    assert.notStrictEqual(await at(), 'Leave');
  }
  await upToHome();
  await page.keyboard.press('Space');
  await page.waitForFunction(() => window.attnlab.appFocusedControl() === 'Stay', null, { timeout: 5000 });
  await afterFrames(page, 4);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.attnlab.appFocusedControl() === 'Leave', null, { timeout: 5000 });
  await page.keyboard.press('Space');
  await page.waitForFunction(() => !location.hash.includes('story='), null, { timeout: 5000 });
  assert.deepStrictEqual(errors, []);
  await page.close();
});

// Arrow keys on the canvas until its focused control is `name` (a toolbar control): up out of the
// panels, then along the toolbar. Returns the controls met.
export async function toCanvasControl(page, name) {
  const met = [];
  const RIGHT_OF_RUN = ['Step', 'Reset', 'threads', 'Share', 'CSV', 'JSON', 'Figures', 'Embed'];
  let top = false;  // in the toolbar's first row (Home seen): along it from then on
  for (let i = 0; i < 40; i++) {
    const at = await page.evaluate(() => window.attnlab.appFocusedControl());
    met.push(at);
    if (at === name) return met;
    top = top || at === 'Home';
    const key = RIGHT_OF_RUN.includes(at) ? 'ArrowLeft' : top ? 'ArrowRight' : 'ArrowUp';
    await page.keyboard.press(key);
    await page.waitForFunction((was) => window.attnlab.appFocusedControl() !== was, at, { timeout: 2000 }).catch(() => {});
  }
  return met;
}

test('Tab never stays on the canvas, whichever canvas control has the focus; Esc lands on the matching twin control', async () => {
  const { page, errors } = await openUrl(env.browser, env.base + '#exp=separation.toy&n=300&trials=100');
  await page.waitForFunction(() => window.attnlab.twinRender !== undefined);
  // Walk the canvas's controls with the arrow keys; from each, Tab leaves the canvas.
  const seen = new Set();
  for (let i = 0; i < 12; i++) {
    await page.focus('#canvas');
    await afterFrames(page, 3);
    await page.keyboard.press('ArrowDown');
    await afterFrames(page, 4);
    seen.add(await page.evaluate(() => window.attnlab.appFocusedControl()));
    await page.keyboard.press('Tab');
    await afterFrames(page, 2);
    assert.notStrictEqual(await page.evaluate(() => document.activeElement.id), 'canvas', `Tab left the canvas (after ${i + 1} arrows)`);
  }
  // Esc with Run focused on the canvas lands on the twin's Run, not on its first button.
  await page.focus('#canvas');
  await toCanvasControl(page, 'Run');
  assert.strictEqual(await page.evaluate(() => window.attnlab.appFocusedControl()), 'Run', 'the canvas focus reached Run');
  await page.keyboard.press('Escape');
  assert.strictEqual(await page.evaluate(() => document.activeElement.id), 'twin-run', 'Esc lands on the twin\'s Run');
  console.log(`canvas controls met by the arrows: ${[...seen].join(', ')}`);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

// Walk 11: once the focus had left the canvas (the text view switched off, a page control), a click
// on a canvas field showed its caret but typing went nowhere, as the page's body kept the keys.
test('a click on a canvas field takes the keyboard back: typing after the focus left the canvas', async () => {
  const { page, errors } = await openUrl(env.browser, env.base + '#story=separation&step=2');
  await page.waitForFunction(() => window.attnlab.twinRender !== undefined);
  await page.evaluate(() => { document.querySelector('#twin-run').focus(); document.activeElement.blur(); });
  assert.strictEqual(await page.evaluate(() => document.activeElement.tagName), 'BODY');
  await page.mouse.click(975, 19);  // the toolbar's seed field at 1280 x 800
  await afterFrames(page, 4);
  assert.strictEqual(await page.evaluate(() => document.activeElement.id), 'canvas', 'the click focused the canvas');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('7');
  await page.keyboard.press('Enter');
  await afterFrames(page, 4);
  assert.match(await page.evaluate(() => window.attnlab.appHash()), /seed=7/, 'the typed seed reached the field');
  assert.deepStrictEqual(errors, []);
  await page.close();
});

// docs/design.md, "Keyboard and screen reader": during a run only the progress and the changed numbers change;
// an element that stays is updated in place (web/twin_morph.js), never rebuilt and re-focused.
// A run of about 20 s on one worker (10000 trials a point; the preset's 1000 end within 3 s now).
test('the twin holds still during a run: a focused Pause gets no focus or blur event in 10 s', async () => {
  const { page, errors } = await openUrl(env.browser, env.base + '#exp=separation.toy&preset=fig3a&seed=3&threads=1&trials=10000');
  await page.waitForFunction(() => window.attnlab.twinRender !== undefined && document.getElementById('twin-run') !== null);
  await page.focus('#twin-run');
  await page.evaluate(() => {
    window.keysLog = { events: [], changes: 0, run: document.getElementById('twin-run'),
      results: document.querySelector('[data-twin-section="results"] h2') };
    for (const t of ['focusin', 'focusout']) {
      document.addEventListener(t, (e) => window.keysLog.events.push(`${t} ${e.target.id || e.target.tagName}`), true);
    }
    new MutationObserver((m) => { window.keysLog.changes += m.length; })
      .observe(document.getElementById('twin'), { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await page.keyboard.press('Enter');  // Run, from the twin: the same button now says Pause
  let running = 0;
  const states = [];
  const end = Date.now() + 10000;
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 500));
    states.push(await page.evaluate(() => window.attnlab.appState()));
    if (states[states.length - 1] === 'running') running++;
  }
  const seen = await page.evaluate(() => ({ events: window.keysLog.events, changes: window.keysLog.changes,
    same: document.activeElement === window.keysLog.run, label: window.keysLog.run.textContent,
    results: window.keysLog.results.isConnected, progress: window.attnlab.appProgress() }));
  console.log(`twin during a 10 s run: ${running} of ${states.length} samples running, ${seen.changes} DOM changes, ` +
    `focus events ${seen.events.length}, progress ${seen.progress.toFixed(2)}; states ${states.join(' ')}`);
  assert.ok(states.length >= 5 && running >= states.length / 2, `the run went on for most of the 10 s (${states.join(' ')})`);
  assert.ok(seen.changes >= 10, `the twin followed the run (${seen.changes} changes)`);
  assert.deepStrictEqual(seen.events, [], 'no focus or blur event on the page during the run');
  assert.ok(seen.same, 'the focused button is the same element');
  assert.ok(seen.results, 'the Results heading a screen reader is on is the same element');
  assert.match(seen.label, /^(Pause|Run)$/);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

// What the live region said since `listen`: each text once per change, in order.
const listen = (page) => page.evaluate(() => {
  const first = window.keysSaid === undefined;
  window.keysSaid = [];
  if (first) new MutationObserver(() => window.keysSaid.push(document.getElementById('status').textContent))
    .observe(document.getElementById('status'), { childList: true, characterData: true, subtree: true });
});
const said = (page) => page.evaluate(() => window.keysSaid);
const JARGON = /worker|MB\b|duality|gap|<=|\de-\d|thread|SVM/i;

test('announcements: the focus on the step title after Start, Next and Back; short statuses, one "answer ready", one "story finished"', async () => {
  const at = await predictionStep();
  const { page, errors } = await openUrl(env.browser, env.base);
  await page.waitForFunction(() => window.attnlab.twinRender !== undefined);
  const title = () => page.evaluate(() => document.activeElement.id);
  await page.focus(`[data-act="story"][data-story="${at.story}"]`);
  await page.keyboard.press('Enter');
  assert.strictEqual(await title(), 'twin-step-title', 'after "Start the story" the focus is on the step title');
  assert.match(await page.locator('#twin-step-title').textContent(), /^Step 1 of /);
  await page.focus('[data-act="next"]');
  await page.keyboard.press('Enter');
  assert.strictEqual(await title(), 'twin-step-title', 'after Next');
  assert.match(await page.locator('#twin-step-title').textContent(), /^Step 2 of /);
  await page.focus('[data-act="back"]');
  await page.keyboard.press('Enter');
  assert.strictEqual(await title(), 'twin-step-title', 'after Back');
  // A step's run: "Running, 40%" by tenths, then "Answer ready" once, no jargon.
  await page.evaluate((h) => window.attnlab.appLoadHash(h), `story=${at.story}&step=${at.step}`);
  await page.waitForFunction((k) => JSON.parse(window.attnlab.appPageJson()).story?.step === k, at.step);
  await listen(page);
  await page.evaluate(() => { window.attnlab.appPredict(0); window.attnlab.appRunControl('run'); });
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 120000 });
  await afterFrames(page, 20);
  let texts = await said(page);
  console.log(`live region during step ${at.step}: ${JSON.stringify(texts)}`);
  assert.strictEqual(texts.filter((t) => /Answer ready/.test(t)).length, 1, 'one "answer ready"');
  assert.ok(texts.some((t) => /^Running, \d+%\.$/.test(t)), 'the progress is said, in short');
  for (const t of texts) {
    assert.doesNotMatch(t, JARGON, 'no jargon in the live region');
    assert.ok(t.length <= 140, `short: ${t}`);
  }
  // The last step: "story finished" once.
  await page.evaluate((h) => window.attnlab.appLoadHash(h), `story=${at.story}&step=${at.steps}`);
  await page.waitForFunction((k) => JSON.parse(window.attnlab.appPageJson()).story?.step === k, at.steps);
  await listen(page);
  await page.evaluate(() => {
    const st = JSON.parse(window.attnlab.appPageJson()).story;
    if (st.prediction) window.attnlab.appPredict(st.prediction.choices.length ? 0 : (st.prediction.min ?? 1));
    if (window.attnlab.appState() !== 'done') window.attnlab.appRunControl('run');
  });
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 120000 });
  await afterFrames(page, 20);
  texts = await said(page);
  console.log(`live region on the last step: ${JSON.stringify(texts)}`);
  assert.strictEqual(texts.filter((t) => /Story finished/.test(t)).length, 1, 'one "story finished"');
  for (const t of texts) assert.doesNotMatch(t, JARGON, 'no jargon in the live region');
  assert.deepStrictEqual(errors, []);
  await page.close();
});
