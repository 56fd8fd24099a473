// End-to-end tests of the page in headless Chromium, driven by playwright-core (node:test).
// Env: see browser.mjs, and ATTNLAB_CLI (the native CLI, for equality with the page).
import test from 'node:test';
import assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import { afterFrames, editCanvasField, openUrl, screenshotMeasure, useBrowser, waitForDrawn, waitForScreen } from './browser.mjs';

const cli = process.env.ATTNLAB_CLI;
const env = useBrowser();
const openPage = (hash = '') => openUrl(env.browser, env.base + (hash ? '#' + hash : ''));

test('the page loads without console errors and draws something', async () => {
  // Without exp= (or story=) the page is the start page (stories.test.mjs); exp= alone opens that
  // experiment with its defaults, as every link did before there was a start page.
  const { page, errors } = await openPage();
  const sd = await waitForDrawn(page);
  assert.deepStrictEqual(errors, []);
  assert.ok(sd > 10, `screenshot looks blank (pixel standard deviation ${sd})`);
  assert.strictEqual(await page.evaluate(() => window.location.hash), '');
  assert.strictEqual(JSON.parse(await page.evaluate(() => window.attnlab.appPageJson())).page, 'start');
  assert.strictEqual(await page.evaluate(() => window.attnlab.appLoadHash('exp=separation.toy')), '');
  await page.waitForFunction(() => /^#exp=separation\.toy&seed=1&n=1000/.test(window.location.hash));
  assert.deepStrictEqual(errors, []);
  await page.close();
});

// The canvas's parameter field `key` by the keyboard (arrows, then Enter starts the editing: Tab
// leaves the canvas), its text replaced and Enter pressed, as a keyboard user does.
async function typeInCanvasField(page, key, text) {
  await editCanvasField(page, key);
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

// What you see is what runs: a refused value in a field (typed on the canvas, or in the text twin)
// keeps Run and Step from running until the field is corrected. The two examples a student met:
// n = 1 in the toy model, r0 = 1000 in regression.
test('a refused value is never run: n = 1 (toy model) on the canvas, r0 = 1000 (regression) in the twin', async () => {
  const pageJson = (page) => page.evaluate(() => JSON.parse(window.attnlab.appPageJson()));
  // The click lands in the middle of Run as drawn, the App then draws frames enough to have taken
  // the press and the release (afterFrames), and Run is still where it was: the click reached Run.
  // The same click runs the corrected value below, so it is not a click that misses.
  const runRect = (page) => page.evaluate(() => window.attnlab.appRunButton());
  const clickRun = async (page) => {
    const rect = await runRect(page);
    const r = JSON.parse(rect);
    assert.ok(r.w > 0 && r.h > 0, 'Run is drawn');
    await page.mouse.click(r.x + r.w / 2, r.y + r.h / 2);
    await afterFrames(page, 6);
    return rect;
  };
  // The canvas: Tab to the field n, type 1, Enter.
  const { page, errors } = await openPage('exp=separation.toy&seed=1&n=300&trials=50');
  await typeInCanvasField(page, 'n', '1');
  await page.waitForFunction(() => JSON.parse(window.attnlab.appPageJson()).runBlocked !== '');
  assert.match((await pageJson(page)).runBlocked, /refused \(parameter 'n': '1' is out of range; allowed: integer in \[2, \d+\]/);
  const rect = await clickRun(page);
  assert.strictEqual(await page.evaluate(() => window.attnlab.appState()), 'ready', 'Run waits while n shows 1');
  assert.strictEqual(await runRect(page), rect, 'Run stayed under the click');
  await page.evaluate(() => window.attnlab.appRunControl('step'));
  assert.strictEqual(await page.evaluate(() => window.attnlab.appState()), 'ready', 'Step waits too');
  // Corrected, it runs the value on screen.
  await typeInCanvasField(page, 'n', '200');
  await page.waitForFunction(() => JSON.parse(window.attnlab.appPageJson()).runBlocked === '');
  await clickRun(page);
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 30000 });
  assert.match(await page.evaluate(() => window.attnlab.appHash()), /(^|&)n=200(&|$)/);
  assert.deepStrictEqual(errors, []);
  await page.close();

  // The twin: r0 = 1000 is refused on its field, its Run is disabled and does nothing; Esc brings
  // back the value in use and Run works again.
  const twin = await openPage('exp=regression&seed=1');
  await twin.page.waitForFunction(() => window.attnlab.twinRender !== undefined && document.getElementById('twin-p-r0'));
  await twin.page.fill('#twin-p-r0', '1000');
  await twin.page.press('#twin-p-r0', 'Enter');
  await twin.page.waitForSelector('#twin-p-r0-error');
  assert.match(await twin.page.locator('#twin-p-r0-error').textContent(), /parameter 'r0': '1000' is out of range/);
  assert.strictEqual(await twin.page.getAttribute('#twin-run', 'aria-disabled'), 'true');
  // The same words as the canvas's refusal (App::refused_value_message), with the field's message.
  assert.match(await twin.page.locator('#twin-blocked').textContent(),
    /^A field shows a value that was refused \(parameter 'r0': '1000' is out of range[^)]*\): correct it first$/);
  // A disabled button that a screen reader still activates: the click does nothing.
  // The click is handled before click() returns (web/twin.js acts at once: appRun sets the state
  // synchronously), so the state read right after it is the click's result; a listener counts that
  // the click reached the button.
  const [clicks, state] = await twin.page.evaluate(() => {
    let n = 0;
    const run = document.getElementById('twin-run');
    run.addEventListener('click', () => ++n);
    run.click();
    return [n, window.attnlab.appState()];
  });
  assert.strictEqual(clicks, 1, 'the click reached the twin\'s Run');
  assert.strictEqual(state, 'ready', 'the twin\'s Run waits while r0 shows 1000');
  await twin.page.focus('#twin-p-r0');
  await twin.page.keyboard.press('Escape');
  await twin.page.waitForFunction(() => !document.getElementById('twin-p-r0-error'));
  assert.strictEqual(await twin.page.inputValue('#twin-p-r0'), '1');
  assert.strictEqual(await twin.page.getAttribute('#twin-run', 'aria-disabled'), null);
  await twin.page.click('#twin-run');
  await twin.page.waitForFunction(() => ['running', 'done'].includes(window.attnlab.appState()), null, { timeout: 10000 });
  assert.deepStrictEqual(twin.errors, []);
  await twin.page.close();
});

test('a link with run=1 finishes and matches the native CLI for the same seed', async () => {
  const settings = [['n', '400'], ['sweep', 'm=1:8:1'], ['trials', '300'], ['tau', '0.2']];
  const hash = 'exp=separation.toy&seed=23&' + settings.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&') + '&run=1';
  const { page, errors } = await openPage(hash);
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 60000 });
  const csv = await page.evaluate(() => window.attnlab.appCsv());
  const expected = execFileSync(cli, ['run', 'separation.toy', '--seed', '23', '--quiet',
    ...settings.flatMap(([k, v]) => ['--set', `${k}=${v}`])]).toString();
  assert.strictEqual(csv, expected);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('a click on Run starts the experiment', async () => {
  const { page } = await openPage('exp=separation.toy&seed=2&n=300&trials=200&sweep=m%3D1%3A5%3A1');
  await page.waitForFunction(() => JSON.parse(window.attnlab.appRunButton()).w > 0);  // the Run button was drawn
  assert.strictEqual(await page.evaluate(() => window.attnlab.appState()), 'ready', 'a link without run=1 does not run');
  const r = JSON.parse(await page.evaluate(() => window.attnlab.appRunButton()));
  await page.mouse.click(r.x + r.w / 2, r.y + r.h / 2);
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 30000 });
  assert.strictEqual(JSON.parse(await page.evaluate(() => window.attnlab.appJson())).rows.length, 5);
  await page.close();
});

test('a bad link shows the schema message and keeps the page working', async () => {
  const { page, errors } = await openPage('exp=separation.toy&tau=9');
  const err = await page.evaluate(() => window.attnlab.appLoadHash('exp=separation.toy&tau=9'));
  assert.strictEqual(err, "parameter 'tau': '9' is out of range; allowed: number in [0.01, 0.5]");
  assert.match(await page.evaluate(() => window.attnlab.appHash()), /tau=0\.25/);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('fig7c from a link matches the native CLI, read back through the page API', async () => {
  const { page, errors } = await openPage('exp=separation.cross&preset=fig7c&seed=5&trials=300&run=1');
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 60000 });
  const run = JSON.parse(await page.evaluate(() => window.attnlab.appJson()));
  assert.strictEqual(run.rows.length, 80);  // m = 1..80
  const csv = await page.evaluate(() => window.attnlab.appCsv());
  const expected = execFileSync(cli, ['run', 'separation.cross', '--preset', 'fig7c', '--set', 'trials=300', '--seed', '5',
    '--quiet']).toString();
  assert.strictEqual(csv, expected);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

// Pixels of the screenshot close to the two ends of the viridis colour map, once the screen shows
// the four maps (or after 30 s).
async function viridisPixels(page) {
  return waitForScreen(page, (d) => {
    const near = (i, r, g, b) => Math.abs(d[i] - r) + Math.abs(d[i + 1] - g) + Math.abs(d[i + 2] - b) < 40;
    let dark = 0, bright = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (near(i, 68, 1, 84)) dark++;
      if (near(i, 253, 231, 37) || near(i, 94, 201, 98)) bright++;
    }
    return { dark, bright };
  }, (v) => v.dark > 20000 && v.bright > 20);
}

test('the inspector draws its heatmaps and matches the CLI', async () => {
  const { page, errors } = await openPage('exp=separation.self&preset=fig5a&seed=3&view=inspector&point=2&trial=1');
  await page.waitForFunction(() => window.attnlab.appInspectorJson() !== '{}', null, { timeout: 120000 });
  const { dark, bright } = await viridisPixels(page);
  // Four attention maps, mostly near 0 (dark), with the planted column of softmax bright (X = 1).
  assert.ok(dark > 20000, `too few dark heatmap pixels: ${dark}`);
  assert.ok(bright > 20, `no bright heatmap pixels: ${bright}`);
  const json = await page.evaluate(() => window.attnlab.appInspectorJson());
  const expected = execFileSync(cli, ['inspect', 'separation.self', '--preset', 'fig5a', '--seed', '3', '--point', '2',
    '--trial', '1', '--format', 'json'], { maxBuffer: 1 << 27 }).toString().trim();
  assert.strictEqual(json, expected);
  assert.match(await page.evaluate(() => window.location.hash), /&view=inspector&point=2&trial=1$/);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('the regression lab runs from a link and matches the native CLI', async () => {
  const { page, errors } = await openPage('exp=regression&preset=reference&seed=4&max_iterations=200&run=1');
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 60000 });
  const csv = await page.evaluate(() => window.attnlab.appCsv());
  const expected = execFileSync(cli, ['run', 'regression', '--preset', 'reference', '--set', 'max_iterations=200',
    '--seed', '4', '--quiet']).toString();
  assert.strictEqual(csv, expected);
  const notes = JSON.parse(await page.evaluate(() => window.attnlab.appJson())).notes;
  assert.ok(notes.some((n) => n.startsWith('exact Newton: converged')));
  // A problem file through the page's loader switches the problem to it.
  const error = await page.evaluate(() => window.attnlab.appLoadData('{"A": [[1, 0], [0, 1], [1, 1]], "b": [0.1, 0.2, 0.3], "w": 1}'));
  assert.strictEqual(error, '');
  assert.match(await page.evaluate(() => window.attnlab.appHash()), /source=data/);
  assert.strictEqual(await page.evaluate(() => window.attnlab.appLoadData('{"A": 1}')),
    'problem file: A must be an array of rows or a sparse object');
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('a refused link, a refused file and a file too large to read keep the user\'s state', async () => {
  const { page, errors } = await openPage('exp=regression&preset=reference&seed=3&max_iterations=50');
  const before = await page.evaluate(() => window.attnlab.appHash());
  const attempts = [
    ['exp=regression&tau=1&tau=2', /link not applied|'tau' is given twice/],
    ['exp=regression&max_iterations=1e400', /beyond the range of a double/],
    ['exp=regression&max_iterations=nan', /'nan' is not a number/],
    ['exp=regression&n=%FF', /'\\xFF' is not a number/],
    ['exp=regression&max_iterations=' + '9'.repeat(100000), /\.\.\.' \(100000 characters\)/],
    ['exp=regression&x=' + 'y'.repeat(140000), /more than the 131072 a link may have/],
  ];
  for (const [hash, message] of attempts) {
    const error = await page.evaluate((h) => window.attnlab.appLoadHash(h), hash);
    assert.match(error, message, hash.slice(0, 80));
    assert.ok(error.length <= 2100, 'the message is short');
    assert.strictEqual(await page.evaluate(() => window.attnlab.appHash()), before, 'the state is kept');
  }
  // Files: a malformed one and one refused by its size before it is read; the parameters stay.
  for (const text of ['{"A": NaN}', '{"A": [[1]], "b": [0.1], "b": [0.2], "w": 1}', '['.repeat(100000)])
    assert.match(await page.evaluate((t) => window.attnlab.appLoadData(t), text), /^problem file: /);
  assert.match(await page.evaluate(() => window.attnlab.appCheckDataSize(200 * 1048576)),
    /209715200 bytes is more than the 64 MB a data file may have/);
  assert.strictEqual(await page.evaluate(() => window.attnlab.appCheckDataSize(1000)), '');
  assert.strictEqual(await page.evaluate(() => window.attnlab.appHash()), before);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('downloads carry the results, named after the experiment, preset and seed', async () => {
  const { page, errors } = await openPage('exp=separation.toy&preset=fig3b&seed=4&trials=20&run=1');
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 60000 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.evaluate(() => window.attnlab.appDownload('csv'))]);
  assert.strictEqual(download.suggestedFilename(), 'separation.toy-fig3b-seed4.csv');
  const fs = await import('node:fs');
  const text = fs.readFileSync(await download.path(), 'utf8');
  assert.strictEqual(text, await page.evaluate(() => window.attnlab.appCsv()));
  await page.evaluate(() => window.attnlab.appShare());
  assert.deepStrictEqual(errors, []);
  await page.close();
});
