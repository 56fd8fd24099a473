// First contact: the start page, every guided story walked from its first step to its
// last (a screenshot per step in build/story-shots/, the link of each step checked by reloading it),
// and the picture of its inputs that an experiment shows before Run. Env: see browser.mjs, and ATTNLAB_CLI.
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openUrl, pixelStandardDeviation, useBrowser } from './browser.mjs';

const env = useBrowser();
const shots = process.env.ATTNLAB_SHOTS_DIR ||
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'build', 'story-shots');
fs.mkdirSync(shots, { recursive: true });
const pageJson = (page) => page.evaluate(() => JSON.parse(window.attnlab.appPageJson()));
const done = (page, timeout = 180000) =>
  page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout });

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
  await page.waitForTimeout(600);
  await page.screenshot({ path: path.join(shots, 'start.png') });
  assert.ok(await pixelStandardDeviation(page) > 10);
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
      if (!step.run) {
        await page.waitForTimeout(300);
        await page.screenshot({ path: path.join(shots, `${story.id}-${k}-before.png`) });
        assert.strictEqual(shown.answer, '', `${where}: the answer shows before Run`);
        // The twin (the page's text for a screen reader) holds the answer back too.
        await page.waitForFunction(() => window.attnlab.twinRender !== undefined);
        await page.evaluate(() => window.attnlab.twinRender());
        const twin = await page.evaluate(() => document.querySelector('[data-twin-section="page"]')?.textContent ?? '');
        assert.ok(twin.includes(step.title), `${where}: the twin shows the step (${twin.slice(0, 80)})`);
        assert.strictEqual(await page.locator('#twin-answer').count(), 0, `${where}: the twin shows the answer before Run`);
        const before = [shown.text, shown.question, JSON.stringify(shown.prediction), twin].join('\n');
        for (const n of step.answer.match(/\d+(\.\d+)?(e-\d+)?%?/g) || [])
          if (n.length >= 3 && /[.%]/.test(n)) assert.ok(!before.includes(n), `${where}: '${n}' is on screen before Run`);
      }
      // A prediction first, then the run; steps that run by themselves are already running.
      if (step.prediction) {
        assert.strictEqual(shown.prediction.predicted, null, where);
        // Before Run: the picture of the inputs, and nothing the run measures (no table, no CSV).
        const inputs = (await pageJson(page)).inputs;
        assert.ok(Array.isArray(inputs) && inputs.length > 0 && inputs.every((t) => t.startsWith('Inputs: ')),
          `${where}: the picture of the inputs before Run (${JSON.stringify(inputs)})`);
        assert.strictEqual(await page.evaluate(() => window.attnlab.appCsv()), '', `${where}: a result before Run`);
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
      assert.strictEqual(after.summary === '', k < story.steps.length, `${where}: the summary only at the end`);
      await page.waitForTimeout(400);
      await page.screenshot({ path: path.join(shots, `${story.id}-${k}.png`) });
      if (k < story.steps.length) assert.strictEqual(await page.evaluate(() => window.attnlab.appStoryStep(1)), '');
    }
    assert.match(await page.evaluate(() => window.attnlab.appStoryStep(1)), /no step there/);
    assert.deepStrictEqual(errors, [], story.id);
    await page.close();
  }
});

test('every preset shows a picture of its inputs before Run, which changes neither the run nor the exports', async () => {
  const hash = 'exp=separation.toy&preset=fig3b&seed=4&trials=200&sweep=m%3D1%3A12%3A1';
  const { page, errors } = await openUrl(env.browser, env.base + '#' + hash);
  await page.waitForFunction(() => JSON.parse(window.attnlab.appPageJson()).inputs !== null, null, { timeout: 10000 });
  assert.deepStrictEqual((await pageJson(page)).inputs, ['Inputs: one D1 and one D0 input (n = 1000)']);
  assert.strictEqual(await page.evaluate(() => window.attnlab.appState()), 'ready');
  assert.strictEqual(await page.evaluate(() => window.attnlab.appCsv()), '', 'the picture is not a result');
  const stateHash = await page.evaluate(() => window.attnlab.appHash());
  assert.doesNotMatch(stateHash, /inputs|run=1/);
  assert.match(await page.evaluate(() => document.getElementById('status').textContent), /Before the run: a picture of its inputs/);
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(shots, 'inputs.png') });
  await page.evaluate(() => window.attnlab.appRun());
  await done(page, 60000);
  assert.strictEqual((await pageJson(page)).inputs, null);
  const expected = execFileSync(process.env.ATTNLAB_CLI, ['run', 'separation.toy', '--preset', 'fig3b', '--seed', '4',
    '--set', 'trials=200', '--sweep', 'm=1:12:1', '--quiet']).toString();
  assert.strictEqual(await page.evaluate(() => window.attnlab.appCsv()), expected);
  assert.deepStrictEqual(errors, []);
  await page.close();
});
