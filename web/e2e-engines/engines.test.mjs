// The core set of the browser tests in the two other engines (engines.mjs): Firefox ESR and
// WebKitGTK, both under one Xvfb. Chromium runs the same things, and more, in the other files of
// this folder. Per engine: the start page's quick runs, one story step with its prediction, a run on
// workers whose CSV equals the CLI's, the Share link round trip, a CSV download, an embed in an
// iframe on another origin, a refused link; then a screenshot of the first step of every story at
// 1280 x 800 and 390 x 844 into build/story-shots/engines/ (ATTNLAB_SHOTS_DIR/engines).
// Env: ATTNLAB_WEB_DIR, ATTNLAB_CLI, NODE_PATH with puppeteer-core and selenium-webdriver;
// ATTNLAB_ENGINES=firefox or webkit runs one of them.
import test, { describe } from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer } from 'node:http';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serveDirectory } from '../e2e/static_server.mjs';
import { ERROR_HOOK_TAG, drawnScreenshot, frames, enginesFromEnv, launchEngine, startXvfb, waitForFile } from './engines.mjs';

const cli = process.env.ATTNLAB_CLI;
const webDir = process.env.ATTNLAB_WEB_DIR;
const engines = enginesFromEnv();
const shots = path.join(process.env.ATTNLAB_SHOTS_DIR ||
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'build', 'story-shots'), 'engines');
const SIZES = [[1280, 800], [390, 844]];
const runCli = (args) => execFileSync(cli, [...args, '--quiet']).toString();

const env = { xvfb: null, server: null, base: '', course: null, courseBase: '', downloads: '' };
test.before(async () => {
  assert.ok(webDir, 'ATTNLAB_WEB_DIR must name the built web app');
  assert.ok(cli, 'ATTNLAB_CLI must name the native CLI');
  fs.mkdirSync(shots, { recursive: true });
  env.downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-engines-'));
  env.xvfb = await startXvfb();
  env.server = await serveDirectory(webDir, { inject: ERROR_HOOK_TAG });  // the error hook before the page's scripts
  env.base = `http://127.0.0.1:${env.server.address().port}/`;
  // A course page on another origin (127.0.0.2: loopback too, no name to resolve) embedding the lab
  // with plain headers (no COOP/COEP), as in workers.test.mjs.
  env.course = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(`<!doctype html><title>course</title><iframe id="lab" width="900" height="600"
      src="${env.base}#exp=separation.toy&n=300&trials=200&sweep=m%3D1%3A6%3A1&threads=2&run=1&embed=1"></iframe>`);
  });
  await new Promise((r) => env.course.listen(0, '127.0.0.2', r));
  env.courseBase = `http://127.0.0.2:${env.course.address().port}/`;
});
test.after(() => {
  env.course?.close();
  env.server?.close();
  env.xvfb?.close();
  if (env.downloads) fs.rmSync(env.downloads, { recursive: true, force: true });
});

const pageJson = (page) => page.eval(() => JSON.parse(window.attnlab.appPageJson()));
const state = (page) => page.eval(() => window.attnlab.appState());
const done = (page, timeout = 60000) => page.waitFor(() => window.attnlab.appState() === 'done', null, timeout, 'the run');
// What the page reported as errors: the driver's events (Firefox: console, page errors, answers >=
// 400), the page's own hook (both; installed before the page's scripts, else that is an error too),
// and the answers >= 400 the server gave since the last call (both; WebKit's driver reports none).
const errorsOf = async (page) => {
  const [hooked, early] = await page.eval(() => [window.__engineErrors || [], window.__engineHookEarly === true]);
  return [...page.errors, ...hooked, ...(early ? [] : ['the error hook was installed after the page loaded']),
    ...env.server.failures.splice(0)];
};

for (const name of engines) {
  describe(name, () => {
    let engine = null;
    // Opens the page and waits for its first frame. A page that loads but draws no first frame in 30 s
    // (seen once in WebKitGTK under Xvfb, in a fresh machine's run) is reported with what it was
    // doing and opened once more; a second miss fails the test.
    const open = async (hash = '', size = {}) => {
      const url = env.base + (hash ? '#' + hash : '');
      for (let attempt = 1; ; ++attempt) {
        const page = await engine.open(url, size);
        try {
          await page.waitFor(() => document.body.dataset.ready === '1', null, 30000, 'the page to be ready');
          return page;
        } catch (e) {
          const seen = await page.eval(() => ({ readyState: document.readyState, href: location.href,
            module: typeof window.Module, api: typeof window.attnlab, text: document.body.innerText.slice(0, 200) }))
            .catch((err) => ({ eval: String(err) }));
          console.log(`${name}: no first frame in 30 s (attempt ${attempt}): ${JSON.stringify(seen)}`);
          await page.close();
          if (attempt === 2) throw e;
        }
      }
    };
    test.before(async () => {
      engine = await launchEngine(name, env.xvfb.display, path.join(env.downloads, name));
      console.log(`${name}: ${engine.version}`);
    });
    test.after(async () => { await engine?.close(); });

    test('the start page: every card finishes its quick run and the page draws', async () => {
      const page = await open();
      assert.strictEqual((await pageJson(page)).page, 'start');
      // Polled every 2 s, not every 150 ms: each poll builds the page's JSON on the page's main
      // thread, where the cards compute, and WebKitGTK's polls starved them past 90 s.
      const deadline = Date.now() + 240000;
      while (!(await page.eval(() => JSON.parse(window.attnlab.appPageJson()).cards.cards.every((c) => c.fraction === 1)))) {
        if (Date.now() >= deadline) {
          const fractions = await page.eval(() => JSON.parse(window.attnlab.appPageJson()).cards.cards.map((c) => c.fraction));
          assert.fail(`timed out after 240 s waiting for every card's quick run (fractions: ${JSON.stringify(fractions)})`);
        }
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
      const stories = JSON.parse(await page.eval(() => window.attnlab.listStories()));
      assert.deepStrictEqual((await pageJson(page)).cards.cards.map((c) => c.story), stories.map((s) => s.id));
      const sd = await drawnScreenshot(page, path.join(shots, `${name}-start.png`));
      assert.ok(sd > 10, `the screenshot looks blank (pixel standard deviation ${sd})`);
      assert.deepStrictEqual(await errorsOf(page), []);
      await page.close();
    });

    test('a story step with a prediction: predict, run, the measurement beside the prediction', async () => {
      const page = await open('story=separation&step=1');
      const shown = (await pageJson(page)).story;
      assert.deepStrictEqual([shown.story, shown.step], ['separation', 1]);
      assert.strictEqual(shown.prediction.predicted, null);
      assert.ok(((await pageJson(page)).inputs || []).length > 0, 'the picture of the inputs before Run');
      assert.strictEqual(await page.eval(() => window.attnlab.appPredict(0)), '');
      assert.strictEqual(await state(page), 'ready');
      await page.eval(() => window.attnlab.appRun());
      await done(page);
      const answered = (await pageJson(page)).story.prediction;
      assert.strictEqual(answered.predicted, 0);
      assert.notStrictEqual(answered.measured, '', 'the measurement beside the prediction');
      // The prediction travels in the link (predict=, the choice counted from 1).
      assert.strictEqual(await page.eval(() => window.location.hash), '#story=separation&step=1&predict=1');
      assert.deepStrictEqual(await errorsOf(page), []);
      await page.close();
    });

    test('a run on 2 workers gives the CLI\'s CSV', async () => {
      const settings = [['n', '400'], ['sweep', 'm=1:8:1'], ['trials', '300'], ['tau', '0.2']];
      const page = await open('exp=separation.toy&seed=23&' +
        settings.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&') + '&threads=2&run=1');
      await done(page);
      const info = await page.eval(() => JSON.parse(window.attnlab.appComputeJson()));
      assert.strictEqual(info.threads, 2);
      assert.strictEqual(info.workers, true, 'the run went to Web Workers');
      const expected = runCli(['run', 'separation.toy', '--seed', '23', ...settings.flatMap(([k, v]) => ['--set', `${k}=${v}`])]);
      assert.strictEqual(await page.eval(() => window.attnlab.appCsv()), expected);
      assert.deepStrictEqual(await errorsOf(page), []);
      await page.close();
    });

    test('a Share link opened afresh restores the state', async () => {
      const page = await open('exp=separation.cross&preset=fig7d&seed=77&trials=40');
      const shared = await page.eval(() => window.attnlab.appHash());
      assert.match(shared, /&preset=fig7d&/);
      // Without a user's gesture the clipboard may refuse, and the page then falls back to a prompt,
      // which would hold the driver: the prompt is answered here; the link is what the page copied.
      await page.eval(() => { window.prompt = () => null; window.attnlab.appShare(); });
      const url = await page.waitFor(() => window.attnlab.lastCopied, null, 5000, 'the copied link');
      assert.strictEqual(url, env.base + '#' + shared);
      assert.deepStrictEqual(await errorsOf(page), []);
      await page.close();
      const again = await engine.open(url);
      await again.waitFor(() => document.body.dataset.ready === '1', null, 30000);
      assert.strictEqual(await again.eval(() => window.attnlab.appHash()), shared);
      await again.close();
    });

    test('a CSV download carries the results, named after the experiment, preset and seed', async () => {
      const page = await open('exp=separation.toy&preset=fig3b&seed=4&trials=20&run=1');
      await done(page);
      await page.eval(() => window.attnlab.appDownload('csv'));
      const file = 'separation.toy-fig3b-seed4.csv';
      const csv = await page.eval(() => window.attnlab.appCsv());
      assert.strictEqual(csv, runCli(['run', 'separation.toy', '--preset', 'fig3b', '--set', 'trials=20', '--seed', '4']));
      assert.strictEqual(await waitForFile(path.join(env.downloads, name), file), csv);
      await page.close();
    });

    test('embedded in an iframe on another origin, the lab runs on workers', async () => {
      const page = await engine.open(env.courseBase);
      const inFrame = (fn) => page.frameEval(env.base, fn);
      const end = Date.now() + 60000;
      while (await inFrame(() => window.attnlab?.appState?.() ?? '').catch(() => '') !== 'done') {
        assert.ok(Date.now() < end, 'the embedded run did not finish in 60 s');
        await new Promise((r) => setTimeout(r, 200));
      }
      const embed = JSON.parse(await inFrame(() => window.attnlab.appEmbedJson()));
      assert.strictEqual(embed.embed, true);
      assert.strictEqual(JSON.parse(await inFrame(() => window.attnlab.appComputeJson())).workers, true);
      assert.strictEqual(await inFrame(() => self.crossOriginIsolated), false);
      assert.strictEqual(await inFrame(() => window.location.origin), env.base.replace(/\/$/, ''));
      assert.strictEqual(await page.eval(() => window.location.origin), env.courseBase.replace(/\/$/, ''));
      assert.match(await inFrame(() => window.attnlab.appCsv()), /^# experiment=separation\.toy/m);
      await page.close();
    });

    test('a refused link names the problem and keeps the state', async () => {
      const page = await open('exp=regression&preset=reference&seed=3&max_iterations=50');
      const before = await page.eval(() => window.attnlab.appHash());
      for (const [hash, message] of [
        ['exp=regression&tau=1&tau=2', /link not applied|'tau' is given twice/],
        ['exp=regression&max_iterations=nan', /'nan' is not a number/],
        ['exp=separation.toy&threads=99', /'threads=99' is not allowed; allowed: integer in \[0, 16\]/],
      ]) {
        assert.match(await page.eval((h) => window.attnlab.appLoadHash(h), hash), message, hash);
        assert.strictEqual(await page.eval(() => window.attnlab.appHash()), before, 'the state is kept');
      }
      assert.deepStrictEqual(await errorsOf(page), []);
      await page.close();
    });

    test('the first step of every story at 1280 x 800 and 390 x 844 (screenshots)', async () => {
      const list = await open();
      const stories = JSON.parse(await list.eval(() => window.attnlab.listStories()));
      await list.close();
      assert.ok(stories.length >= 4);
      // One run per story at the first size, then the viewport changes (the layout follows it).
      for (const story of stories) {
        const [[width, height]] = SIZES;
        const page = await open('story=' + story.id, { width, height });
        const step = story.steps[0];
        if (step.prediction) assert.strictEqual(await page.eval(() => window.attnlab.appPredict(0)), '');
        if ((await state(page)) === 'ready') await page.eval(() => window.attnlab.appRun());
        await done(page, 120000);
        for (const [w, h] of SIZES) {
          await page.resize(w, h);
          assert.deepStrictEqual(await page.eval(() => [window.innerWidth, window.innerHeight]), [w, h]);
          await frames(page, 4);  // the App lays itself out again in the frames after a resize
          const file = path.join(shots, `${name}-${story.id}-1-${w}x${h}.png`);
          const sd = await drawnScreenshot(page, file);
          assert.ok(sd > 10, `${file} looks blank (pixel standard deviation ${sd})`);
        }
        assert.deepStrictEqual(await errorsOf(page), [], story.id);
        await page.close();
      }
    });
  });
}
