// First contact: the start page, every guided story walked from its first step to its
// last (a screenshot per step in build/story-shots/, the link of each step checked by reloading it),
// and the picture of its inputs that an experiment shows before Run. Env: see browser.mjs, and ATTNLAB_CLI.
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterFrames, openUrl, useBrowser, waitForDrawn } from './browser.mjs';

const env = useBrowser();
const shots = process.env.ATTNLAB_SHOTS_DIR ||
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'build', 'story-shots');
fs.mkdirSync(shots, { recursive: true });
const pageJson = (page) => page.evaluate(() => JSON.parse(window.attnlab.appPageJson()));
const done = (page, timeout = 180000) =>
  page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout });
// The numbers a text states, each a whole token as written: integers ("29", "300000"), decimals,
// exponent forms ("2.48e-06", "1e-3") and percents; the exponent without leading zeros (the twin
// writes 2.48e-6).
// Citations ("Section 5", "Lemmas 28-29", "Figs. 3, 4, 5 and 7") are left out: they name a place in
// a paper, not a value (a glossary entry's source cites one before Run).
const CITATION = /\b(?:Sections?|Lemmas?|Theorems?|Definitions?|Algorithms?|Figs?\.|Figures?|Eqs?\.|Corollary|Proposition|Assumption|Remark|Appendix)\s+\d+(?:\.\d+)?[a-z]?(?:(?:\s*,\s*|\s*-\s*|\s+and\s+)\d+(?:\.\d+)?[a-z]?(?![\d.%]))*/g;
const numbersIn = (text) => (text.replace(CITATION, ' ').match(/(?<![\w.])\d+(?:\.\d+)?(?:e[-+]?\d+)?%?(?![\w])/g) || [])
  .map((n) => n.replace(/e([-+]?)0*(\d)/, 'e$1$2'));

test('an address without exp= or story= opens the start page: a card per story, with live figures', async () => {
  const { page, errors } = await openUrl(env.browser, env.base);
  assert.strictEqual((await pageJson(page)).page, 'start');
  assert.strictEqual(await page.evaluate(() => window.location.hash), '');
  assert.strictEqual(await page.evaluate(() => window.attnlab.appHash()), '');
  // Every card's quick run finishes (they compute one after another between frames).
  await page.waitForFunction(() => JSON.parse(window.attnlab.appPageJson()).cards.cards.every((c) => c.fraction === 1),
    null, { timeout: 60000 });
  const stories = JSON.parse(await page.evaluate(() => window.attnlab.listStories()));
  assert.deepStrictEqual((await pageJson(page)).cards.cards.map((c) => c.story), stories.map((s) => s.id));
  assert.ok(await waitForDrawn(page) > 10);
  await page.screenshot({ path: path.join(shots, 'start.png') });
  assert.match(await page.evaluate(() => document.getElementById('status').textContent), /start page/);
  // theme= alone keeps the start page; parameters without an experiment are refused by name.
  assert.strictEqual(await page.evaluate(() => window.attnlab.appLoadHash('theme=light')), '');
  assert.strictEqual((await pageJson(page)).page, 'start');
  assert.strictEqual(await page.evaluate(() => window.attnlab.appLoadHash('tau=0.3')),
    "link: 'tau' needs an experiment or a story; allowed: exp=ID or story=ID with it");
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('story= and step= are validated like every link key', async () => {
  const { page, errors } = await openUrl(env.browser, env.base + '#story=separation&step=1');
  const stories = JSON.parse(await page.evaluate(() => window.attnlab.listStories()));
  const ids = stories.map((s) => s.id).join(', ');
  assert.strictEqual(await page.evaluate(() => window.attnlab.appLoadHash('story=nope')),
    `link: 'story=nope' is not allowed; allowed: ${ids}`);
  const n = stories[0].steps.length;
  assert.strictEqual(await page.evaluate((h) => window.attnlab.appLoadHash(h), `story=${stories[0].id}&step=${n + 1}`),
    `link: 'step=${n + 1}' is not allowed; allowed: integer in [1, ${n}] (the steps of story '${stories[0].id}')`);
  assert.match(await page.evaluate(() => window.attnlab.appLoadHash('exp=mirror&story=mirror')),
    /^link: 'exp=mirror' cannot be given with 'story'/);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('every story, walked from its first step to its last: link, reload, prediction, run, screenshot', async () => {
  const stories = JSON.parse(await (async () => {
    const { page } = await openUrl(env.browser, env.base);
    const list = await page.evaluate(() => window.attnlab.listStories());
    await page.close();
    return list;
  })());
  assert.ok(stories.length >= 4);
  let checkedNumbers = 0;
  for (const story of stories) {
    const { page, errors } = await openUrl(env.browser, env.base + '#story=' + story.id);
    for (let k = 1; k <= story.steps.length; ++k) {
      const step = story.steps[k - 1];
      const where = `${story.id} step ${k}`;
      const shown = (await pageJson(page)).story;
      assert.strictEqual(shown.story, story.id, where);
      assert.strictEqual(shown.step, k, where);
      assert.strictEqual(shown.title, step.title, where);
      const hash = `#story=${story.id}&step=${k}`;
      await page.waitForFunction((h) => window.location.hash === h, hash, { timeout: 5000 });
      // The link lands on this step in a fresh page.
      const { page: again } = await openUrl(env.browser, env.base + hash);
      const landed = (await pageJson(again)).story;
      assert.deepStrictEqual([landed.story, landed.step], [story.id, k], `${where}: reloading ${hash}`);
      await again.close();
      // Nothing of the answer before the run: the answer's numbers are not in what the page shows.
      let stated = new Set(), before = new Set();
      if (!step.run) {
        assert.strictEqual(shown.answer, '', `${where}: the answer shows before Run`);
        // The twin (the page's text for a screen reader) holds the answer back too: wait for it to
        // show this step by its own refresh.
        await page.waitForFunction((t) => document.querySelector('[data-twin-section="page"]')?.textContent.includes(t),
          step.title, { timeout: 10000 });
        await page.screenshot({ path: path.join(shots, `${story.id}-${k}-before.png`) });
        assert.strictEqual(await page.locator('#twin-answer').count(), 0, `${where}: the twin shows the answer before Run`);
        // The twin's "Words in this step" lists the step's terms as text a reader sees (innerText:
        // a closed disclosure's content would read as an empty list).
        const words = await page.evaluate(() => document.querySelector('.twin-glossary dl')?.innerText ?? '');
        assert.ok(words.trim().length > 0, `${where}: the twin's "Words in this step" is empty or missing`);
        // What the page shows before Run: the step, the prediction, the whole twin (toolbar,
        // parameters, the picture's tables) and the live region. Once the run is done, every
        // number of the rendered answer that the step does not state (its place "Step 5 of 5",
        // title, text, question, prediction, and `given`: the settings and values derived from them
        // that tests/test_stories.cpp holds the step's words to) must be absent from it.
        const twin = await page.evaluate(() => document.getElementById('twin').textContent);
        const status = await page.evaluate(() => document.getElementById('status').textContent);
        const place = `Step ${k} of ${story.steps.length}`;
        stated = new Set([...numbersIn([place, step.title, step.text, step.question, JSON.stringify(step.prediction)].join('\n')),
          ...step.given]);
        before = new Set(numbersIn([shown.text, shown.question, JSON.stringify(shown.prediction), twin, status].join('\n')));
      }
      // A prediction first, then the run; steps that run by themselves are already running.
      if (step.prediction) {
        assert.strictEqual(shown.prediction.predicted, null, where);
        // Before Run: the picture of the inputs, and nothing the run measures (no table, no CSV).
        const inputs = (await pageJson(page)).inputs;
        assert.ok(Array.isArray(inputs) && inputs.length > 0 && inputs.every((t) => t.startsWith('Inputs: ')),
          `${where}: the picture of the inputs before Run (${JSON.stringify(inputs)})`);
        assert.strictEqual(await page.evaluate(() => window.attnlab.appCsv()), '', `${where}: a result before Run`);
        // The plot the step names comes first, an empty frame until Run: on the canvas (its note
        // drawn) and in the twin (the first figure, with the same note); docs/design.md "The picture before a run".
        const figs = JSON.parse(await page.evaluate(() => window.attnlab.appTwinFiguresJson()));
        assert.strictEqual(figs.pending?.title, shown.plot, `${where}: the named plot's frame before Run`);
        assert.strictEqual(figs.pending.note, 'Drawn when you press Run', where);
        const firstFigure = await page.evaluate(() => document.querySelector('#twin figure figcaption')?.textContent ?? '');
        assert.ok(firstFigure.includes(shown.plot), `${where}: the twin's first figure is "${firstFigure}"`);
        const canvasText = JSON.parse(await page.evaluate(() => window.attnlab.appTextRunsJson())).map((r) => r.text).join(' ');
        assert.ok(canvasText.replace(/\s+/g, ' ').includes('Drawn when you press Run'), `${where}: the frame's note on the canvas`);
        // Run (and Step run) wait for the prediction.
        assert.match((await pageJson(page)).runBlocked, /prediction/, where);
        await page.evaluate(() => window.attnlab.appRun());
        assert.strictEqual(await page.evaluate(() => window.attnlab.appState()), 'ready', `${where}: ran before the prediction`);
        assert.strictEqual(await page.evaluate(() => window.attnlab.appPredict(0)), '');
        assert.strictEqual(await page.evaluate(() => window.attnlab.appState()), 'ready', where);
        await page.evaluate(() => window.attnlab.appRun());
      } else {
        assert.strictEqual(step.run, (await page.evaluate(() => window.attnlab.appState())) !== 'ready', where);
        if (!step.run) await page.evaluate(() => window.attnlab.appRun());
      }
      await done(page);
      if (step.prediction) {
        const answered = (await pageJson(page)).story.prediction;
        assert.strictEqual(answered.predicted, 0, where);
        assert.notStrictEqual(answered.measured, '', `${where}: the measurement beside the prediction`);
      }
      const after = (await pageJson(page)).story;
      // The answer is rendered from the run on screen: every placeholder of its template filled.
      assert.notStrictEqual(after.answer, '', `${where}: the answer once the run is done`);
      assert.doesNotMatch(after.answer, /\{|not measured/, `${where}: the answer's every value measured`);
      if (!step.run) {
        const answerOnly = numbersIn(after.answer).filter((n) => !stated.has(n));
        for (const n of answerOnly) assert.ok(!before.has(n), `${where}: '${n}' of the answer was on screen before Run`);
        checkedNumbers += answerOnly.length;
      }
      assert.strictEqual(after.summary === '', k < story.steps.length, `${where}: the summary only at the end`);
      await afterFrames(page, 4);  // the frames after 'done' are drawn
      await page.screenshot({ path: path.join(shots, `${story.id}-${k}.png`) });
      if (k < story.steps.length) assert.strictEqual(await page.evaluate(() => window.attnlab.appStoryStep(1)), '');
    }
    assert.match(await page.evaluate(() => window.attnlab.appStoryStep(1)), /no step there/);
    assert.deepStrictEqual(errors, [], story.id);
    await page.close();
  }
  console.log(`${checkedNumbers} numbers of answers checked absent before Run`);
  assert.ok(checkedNumbers >= 20, `only ${checkedNumbers} numbers of answers were checked before Run`);
});

test('every preset shows a picture of its inputs before Run, and the picture is not a result', async () => {
  const { page, errors } = await openUrl(env.browser, env.base + '#exp=separation.toy&preset=fig3b&seed=4');
  const experiments = JSON.parse(await page.evaluate(() => window.attnlab.listExperiments()));
  let presets = 0;
  for (const e of experiments) {
    const names = ['', ...(JSON.parse(await page.evaluate((id) => window.attnlab.describeExperiment(id), e.id)).presets || [])
      .map((p) => p.name)];
    for (const preset of names) {
      const where = `${e.id} ${preset || '(no preset)'}`;
      const hash = `exp=${e.id}${preset ? '&preset=' + preset : ''}&seed=4`;
      assert.strictEqual(await page.evaluate((h) => window.attnlab.appLoadHash(h), hash), '', where);
      const loaded = await page.evaluate(() => window.attnlab.appHash());
      await page.waitForFunction(() => JSON.parse(window.attnlab.appPageJson()).inputs !== null, null, { timeout: 20000 });
      const inputs = (await pageJson(page)).inputs;
      assert.ok(inputs.length > 0 && inputs.every((t) => t.startsWith('Inputs: ')), `${where}: ${JSON.stringify(inputs)}`);
      // The picture's figures are the inputs, and nothing of a run: no table, no CSV, no run in the link.
      const figs = JSON.parse(await page.evaluate(() => window.attnlab.appTwinFiguresJson()));
      assert.strictEqual(figs.inputs, true, where);
      assert.deepStrictEqual([...figs.plots.map((p) => p.title), ...figs.heatmaps.map((h) => h.title)].sort(), [...inputs].sort(), where);
      assert.strictEqual(await page.evaluate(() => window.attnlab.appState()), 'ready', where);
      assert.strictEqual(await page.evaluate(() => window.attnlab.appCsv()), '', `${where}: the picture is not a result`);
      assert.strictEqual(await page.evaluate(() => window.attnlab.appHash()), loaded, `${where}: the picture is not in the link`);
      presets++;
    }
  }
  assert.ok(presets >= 50, `${presets} presets checked`);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

// The run after the picture equals the CLI's run of the same settings (which draws no picture):
// the table (CSV and JSON) and every exported figure (each plot's and heatmap's SVG).
test('a run after the picture of its inputs equals the CLI\'s: CSV, JSON and every figure', async () => {
  const cases = [
    ['separation.toy', 'fig3b', [['trials', '200'], ['sweep', 'm=1:12:1']]],
    ['regression', 'reference', [['d', '2'], ['max_iterations', '50']]],
    ['mirror', 'single_run_zero', []],
    ['multihead.acceptance', 'versus_m', [['samples', '2000']]],
  ];
  for (const [id, preset, settings] of cases) {
    const where = `${id} ${preset}`;
    const hash = `exp=${id}&preset=${preset}&seed=4&` + settings.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
    const { page, errors } = await openUrl(env.browser, env.base + '#' + hash);
    await page.waitForFunction(() => JSON.parse(window.attnlab.appPageJson()).inputs !== null, null, { timeout: 20000 });
    assert.strictEqual(await page.evaluate(() => window.attnlab.appCsv()), '', `${where}: the picture is not a result`);
    if (id === 'separation.toy') {
      assert.match(await page.evaluate(() => document.getElementById('status').textContent), /Before the run: a picture of its inputs/);
      await waitForDrawn(page);
      await page.screenshot({ path: path.join(shots, 'inputs.png') });
    }
    await page.evaluate(() => window.attnlab.appRun());
    await done(page, 60000);
    assert.strictEqual((await pageJson(page)).inputs, null, where);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-inputs-'));
    const args = ['run', id, '--preset', preset, '--seed', '4', '--quiet', ...settings.flatMap(([k, v]) => ['--set', `${k}=${v}`])];
    execFileSync(process.env.ATTNLAB_CLI, [...args, '--out', path.join(dir, 'table.csv'), '--figures', dir]);
    const json = execFileSync(process.env.ATTNLAB_CLI, [...args, '--format', 'json'], { maxBuffer: 1 << 27 }).toString();
    assert.strictEqual(await page.evaluate(() => window.attnlab.appCsv()), fs.readFileSync(path.join(dir, 'table.csv'), 'utf8'), `${where}: CSV`);
    const untimed = (text) => text.replace(/[\d.e+-]+ ms\b/g, 'T ms');  // the notes' wall-clock times
    assert.strictEqual(untimed(await page.evaluate(() => window.attnlab.appJson())), untimed(json.trim()), `${where}: JSON`);
    const figures = JSON.parse(await page.evaluate(() => window.attnlab.appPlotsJson()));
    const svgs = [...figures.plots.map((_, i) => ['svg', i, `plot${i + 1}`]), ...figures.heatmaps.map((_, i) => ['heatmap-svg', i, `heatmap${i + 1}`])];
    assert.ok(svgs.length > 0, `${where}: figures`);
    for (const [kind, i, file] of svgs) {
      const svg = await page.evaluate(([k, j]) => window.attnlab.appFigureSvg(k, j), [kind, i]);
      assert.strictEqual(svg, fs.readFileSync(path.join(dir, `${id}-${preset}-seed4-${file}.svg`), 'utf8'), `${where}: ${file}`);
    }
    fs.rmSync(dir, { recursive: true });
    assert.deepStrictEqual(errors, [], where);
    await page.close();
  }
});

// On a phone the panels stack and a step's answer is below the fold: after Run the story panel
// scrolls to it by itself (the steps whose answer sat lowest in the student walk).
test('on a 390 x 844 screen the answer scrolls into view after Run', async () => {
  for (const [story, step] of [['multihead', 2], ['mirror', 4]]) {
    const { page, errors } = await openUrl(env.browser, `${env.base}#story=${story}&step=${step}&threads=1`, { width: 390, height: 844 });
    await page.evaluate(() => { window.attnlab.appPredict(0); window.attnlab.appRun(); });
    await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 120000 });
    // Frames after the run: the answer shows in the panel within a second, with nobody at the page.
    await page.waitForFunction(() => JSON.parse(window.attnlab.appQuestionRect()).answerVisible, null, { timeout: 3000 })
      .catch(() => assert.fail(`${story} step ${step}: the answer is not in view 3 s after the run on a phone`));
    assert.deepStrictEqual(errors, []);
    await page.close();
  }
});

// Walk 12: a wheel notch scrolled a panel by ImGui's 5 lines (about 75 px), slower than any page.
// A notch (deltaY 100 px, as Chromium gives) scrolls the story panel by 120 px (main.cpp,
// kWheelNotchPixels): the question moves by that much, down and then up (one of the two may stop
// at the panel's end).
test('a mouse wheel notch scrolls a story panel by about 120 px', async () => {
  const { page, errors } = await openUrl(env.browser, `${env.base}#story=multihead&step=2&threads=1`, { width: 390, height: 844 });
  await page.evaluate(() => { window.attnlab.appPredict(0); window.attnlab.appRun(); });
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 120000 });
  await afterFrames(page, 8);
  const questionY = async () => JSON.parse(await page.evaluate(() => window.attnlab.appQuestionRect())).y;
  const steadyY = async () => {  // the panel's own scrolling (the answer brought into view) done
    for (let y = await questionY(); ; ) {
      await afterFrames(page, 10);
      const now = await questionY();
      if (now === y) return now;
      y = now;
    }
  };
  await steadyY();
  const r = JSON.parse(await page.evaluate(() => window.attnlab.appQuestionRect()));
  await page.mouse.move(r.x + 20, (r.panelTop + r.panelBottom) / 2);  // the question may be scrolled off
  const moves = [];
  for (const delta of [100, -100]) {
    const before = await steadyY();
    await page.mouse.wheel(0, delta);
    moves.push(Math.abs((await steadyY()) - before));
  }
  const most = Math.max(...moves);
  assert.ok(most > 110 && most < 130,
            `a notch moved the question by ${moves.join(' and ')} px, not about 120 (question at ${JSON.stringify(r)})`);
  assert.deepStrictEqual(errors, []);
  await page.close();
});
