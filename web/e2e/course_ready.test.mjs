// Browser tests of what a course needs: embeds with hidden controls, share links and
// history, figure exports, keyboard use, context loss, and the messages of an unfit browser.
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serveDirectory } from './static_server.mjs';
import { afterFrames, editCanvasField, launchChromium, openUrl, screenshotMeasure, useBrowser, waitForDrawn, waitForScreen, webDir } from './browser.mjs';

const env = useBrowser();
const openPage = (hash = '', options = {}) => openUrl(env.browser, env.base + (hash ? '#' + hash : ''), options);
const api = (page, call) => page.evaluate(call);

// Pixels of the first series colour (Okabe-Ito sky blue 86,180,233) in a column band of the screenshot.
function seriesPixelsIn(x0, x1, y0, y1) {
  return new Function('d', 'w', `let n = 0;
    for (let y = ${y0}; y < ${y1}; ++y) for (let x = ${x0}; x < ${x1}; ++x) {
      const i = 4 * (y * w + x);
      if (Math.abs(d[i] - 86) < 12 && Math.abs(d[i + 1] - 180) < 12 && Math.abs(d[i + 2] - 233) < 12) ++n;
    }
    return n;`);
}

test('an embed link with hide= shows one experiment without the hidden controls', async () => {
  const hidden = 'data,info,params,presets,seed';
  const { page, errors } = await openPage(`exp=separation.toy&preset=fig3b&seed=3&trials=40&embed=1&hide=${hidden}&run=1`);
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 60000 });
  const embed = JSON.parse(await api(page, () => window.attnlab.appEmbedJson()));
  assert.strictEqual(embed.embed, true);
  assert.deepStrictEqual(embed.hidden, hidden.split(','));
  assert.deepStrictEqual(embed.visible, []);
  // The link keeps the embed settings, so a reload shows the same embed.
  assert.match(await api(page, () => window.location.hash), /&embed=1&hide=data,info,params,presets,seed/);
  // With every control hidden the plots fill the frame: the left third, where the parameter panel
  // would be, now shows the success curve. The full page shows no curve there.
  const left = seriesPixelsIn(20, 360, 120, 760);
  const inEmbed = await waitForScreen(page, left, (n) => n > 50);  // the frames after 'done' drawn
  assert.ok(inEmbed > 50, `the embed's left third shows no curve (${inEmbed} curve pixels)`);
  const { page: full } = await openPage('exp=separation.toy&preset=fig3b&seed=3&trials=40&run=1');
  await full.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 60000 });
  await afterFrames(full, 4);  // the frames after 'done' are drawn
  const inFull = await screenshotMeasure(full, left);
  assert.ok(inFull < 5, `the full page's parameter panel shows curve pixels (${inFull})`);
  assert.deepStrictEqual(JSON.parse(await api(full, () => window.attnlab.appEmbedJson())).embed, false);
  // Parameter keys hide one by one; an unknown key is refused with the list of what is allowed.
  assert.strictEqual(await api(full, () => window.attnlab.appLoadHash('exp=separation.toy&embed=1&hide=tau,n')), '');
  const some = JSON.parse(await api(full, () => window.attnlab.appEmbedJson()));
  assert.ok(!some.visible.includes('tau') && !some.visible.includes('n') && some.visible.includes('trials'));
  const refused = await api(full, () => window.attnlab.appLoadHash('exp=separation.toy&hide=nope'));
  assert.match(refused, /^link: 'hide' names 'nope', which is not a control here; allowed: run, presets, seed, export/);
  assert.deepStrictEqual(errors, []);
  await page.close();
  await full.close();
});

test('a refused embed link still shows an embed, with the reason, and keeps the address', async () => {
  const link = 'exp=separation.toy&embed=1&hide=seed,nope&theme=light&tau=9';
  const { page, errors } = await openPage(link);
  const embed = JSON.parse(await api(page, () => window.attnlab.appEmbedJson()));
  assert.strictEqual(embed.embed, true, 'a bad key turned the embed into the full lab');
  assert.deepStrictEqual(embed.hidden, ['seed']);
  assert.strictEqual(embed.theme, 'light');
  assert.match(await api(page, () => document.getElementById('status').textContent),
    /Error: link not applied: parameter 'tau': '9'/);
  assert.strictEqual(await api(page, () => window.location.hash), '#' + link);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('hide=run starts the run by itself; hide=tabs keeps the inspector of view=inspector', async () => {
  const { page, errors } = await openPage('exp=separation.toy&preset=fig3b&trials=20&embed=1&hide=run');
  await page.waitForFunction(() => ['running', 'done'].includes(window.attnlab.appState()), null, { timeout: 10000 });
  const hash = 'exp=separation.self&preset=fig5a&seed=3&view=inspector&point=2&trial=1&embed=1&hide=tabs';
  assert.strictEqual(await page.evaluate((h) => window.attnlab.appLoadHash(h), hash), '');
  await page.waitForFunction(() => window.attnlab.appInspectorJson() !== '{}', null, { timeout: 30000 });
  assert.match(await api(page, () => window.attnlab.appHash()), /&view=inspector&point=2&trial=1/);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('inside an iframe the lab never adds to the course page\'s history', async () => {
  // The example course page embeds the lab in an iframe.
  const { page } = await openUrl(env.browser, env.base + 'examples/course.html', { ready: false });
  const frame = await (await page.waitForSelector('#lab-frame')).contentFrame();
  await frame.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30000 });
  const before = await page.evaluate(() => history.length);
  // A user's edit (the first text field, n, typed in) would push an entry at the top level; in an
  // iframe it replaces the current one.
  await editCanvasField(frame, 'n', page.keyboard);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('700');
  await page.keyboard.press('Enter');
  await frame.waitForFunction(() => /&n=700&/.test(window.location.hash));
  assert.strictEqual(await page.evaluate(() => history.length), before);
  await page.close();
});

test('a Share link restores every parameter of every experiment, and each embeds', async () => {
  const ids = JSON.parse(await (async () => {
    const { page } = await openPage();
    const list = await api(page, () => window.attnlab.listExperiments());
    await page.close();
    return list;
  })()).map((e) => e.id);
  assert.ok(ids.length >= 9);
  for (const id of ids) {
    const { page, errors } = await openPage(`exp=${id}&seed=77`);
    const presets = JSON.parse(await page.evaluate((i) => window.attnlab.describeExperiment(i), id)).presets;
    const preset = presets[presets.length - 1].name;
    assert.strictEqual(await page.evaluate((h) => window.attnlab.appLoadHash(h), `exp=${id}&preset=${preset}&seed=77`), '');
    const state = await api(page, () => window.attnlab.appHash());
    assert.match(state, new RegExp(`&preset=${preset.replace('.', '\\.')}&`), `${id}: the link lost the preset`);
    await api(page, () => window.attnlab.appShare());
    const url = await api(page, () => window.attnlab.lastCopied);
    assert.strictEqual(url, env.base + '#' + state);
    const { page: other } = await openUrl(env.browser, url);
    assert.strictEqual(await api(other, () => window.attnlab.appHash()), state, `${id}: the shared link changed the state`);
    // And it embeds: the same state with embed=1 and every parameter hidden.
    assert.strictEqual(await other.evaluate((h) => window.attnlab.appLoadHash(h), state + '&embed=1&hide=params'), '');
    const embed = JSON.parse(await api(other, () => window.attnlab.appEmbedJson()));
    assert.ok(embed.embed && embed.visible.length === 0, `${id}: ${JSON.stringify(embed)}`);
    assert.deepStrictEqual(errors, []);
    await page.close();
    await other.close();
  }
});

test('Back and Forward restore earlier states', async () => {
  const { page, errors } = await openPage('exp=separation.toy&seed=5');
  const first = await api(page, () => window.attnlab.appHash());
  // A user edit: the seed field by keyboard.
  await editCanvasField(page, 'seed');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('9');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /&seed=9&/.test(window.location.hash));
  await page.goBack();
  await page.waitForFunction((h) => window.attnlab.appHash() === h, first);
  await page.goForward();
  await page.waitForFunction(() => /&seed=9&/.test(window.attnlab.appHash()));
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('plots export as SVG (one path per series) and PNG, heatmaps as PNG', async () => {
  const { page, errors } = await openPage('exp=regression&preset=reference&d=2&seed=2&run=1');
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 60000 });
  const record = JSON.parse(await api(page, () => window.attnlab.appPlotsJson()));
  assert.ok(record.plots.length >= 2 && record.heatmaps.length >= 1);
  for (let i = 0; i < record.plots.length; ++i) {
    const check = await page.evaluate((k) => {
      const doc = new DOMParser().parseFromString(window.attnlab.appPlotSvg(k), 'image/svg+xml');
      return { error: doc.querySelector('parsererror') !== null, root: doc.documentElement.nodeName,
        series: [...doc.querySelectorAll('path.series')].map((p) => p.getAttribute('data-name')) };
    }, i);
    assert.strictEqual(check.error, false, `plot ${i}: the SVG does not parse`);
    assert.strictEqual(check.root, 'svg');
    assert.deepStrictEqual(check.series, record.plots[i].series, `plot ${i}: one path per series`);
  }
  const save = async (kind, index) => {
    const [download] = await Promise.all([page.waitForEvent('download'),
      page.evaluate(([k, n]) => window.attnlab.appExportFigure(k, n), [kind, index])]);
    return { name: download.suggestedFilename(), bytes: fs.readFileSync(await download.path()) };
  };
  const svg = await save('svg', 0);
  assert.strictEqual(svg.name, 'regression-reference-seed2-plot1.svg');
  assert.strictEqual(svg.bytes.toString(), await api(page, () => window.attnlab.appPlotSvg(0)));
  // The CLI writes the same figure for the same settings and seed.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-figures-'));
  execFileSync(process.env.ATTNLAB_CLI, ['run', 'regression', '--preset', 'reference', '--set', 'd=2', '--seed', '2',
    '--quiet', '--out', path.join(dir, 'table.csv'), '--figures', dir]);
  assert.strictEqual(fs.readFileSync(path.join(dir, 'regression-reference-seed2-plot1.svg'), 'utf8'), svg.bytes.toString());
  const png = await save('png', 0);
  assert.strictEqual(png.name, 'regression-reference-seed2-plot1.png');
  assert.deepStrictEqual([...png.bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
  assert.ok(png.bytes.readUInt32BE(16) === 1280, `the plot PNG is drawn at twice 640 px (width ${png.bytes.readUInt32BE(16)})`);
  const map = await save('heatmap', 0);
  assert.strictEqual(map.name, 'regression-reference-seed2-heatmap1.png');
  assert.deepStrictEqual([...map.bytes.subarray(1, 4)], [80, 78, 71]);
  assert.match(await api(page, () => window.attnlab.appExportFigure('svg', 99)), /plot 99 does not exist/);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('the keyboard alone (arrows, Enter) starts a run', async () => {
  const { page, errors } = await openPage('exp=separation.toy&preset=fig3b&seed=1&trials=20');
  // Into the seed field and out of its editing again (Escape), keeping the keyboard focus.
  await editCanvasField(page, 'seed');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !window.attnlab.appTextInput());
  // One arrow at a time, each waited for (a slow frame must not let two presses land together).
  for (let i = 0; i < 12; ++i) {
    const at = await api(page, () => window.attnlab.appFocusedControl());
    if (at === 'Run') break;
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((was) => window.attnlab.appFocusedControl() !== was, at, { timeout: 2000 }).catch(() => {});
  }
  assert.strictEqual(await api(page, () => window.attnlab.appFocusedControl()), 'Run');
  assert.strictEqual(await api(page, () => window.attnlab.appState()), 'ready');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => ['running', 'done'].includes(window.attnlab.appState()), null, { timeout: 10000 });
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('the live region reads out the experiment, its state and key numbers', async () => {
  const { page } = await openPage('exp=separation.toy&preset=fig3b&seed=1&trials=50&run=1');
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 60000 });
  await page.waitForFunction(() => /done/.test(document.getElementById('status').textContent));
  const status = await page.evaluate(() => document.getElementById('status').textContent);
  assert.match(status, /^Softmax vs linear: the toy model: done, 100% done\. Latest point: m = 100, success 1\.000/);
  assert.strictEqual(await page.evaluate(() => document.getElementById('status').getAttribute('aria-live')), 'polite');
  await page.close();
});

test('a lost WebGL context is restored without losing the results', async () => {
  const { page, errors } = await openPage('exp=separation.toy&preset=fig3b&seed=8&trials=30&run=1');
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 60000 });
  const csv = await api(page, () => window.attnlab.appCsv());
  await page.evaluate(() => {
    window.glLoss = document.getElementById('canvas').getContext('webgl2').getExtension('WEBGL_lose_context');
    window.glLoss.loseContext();
  });
  await page.waitForFunction(() => document.getElementById('canvas').getContext('webgl2').isContextLost());
  await page.evaluate(() => window.glLoss.restoreContext());
  await page.waitForFunction(() => !document.getElementById('canvas').getContext('webgl2').isContextLost());
  assert.strictEqual(await api(page, () => window.attnlab.appCsv()), csv);
  // The App draws again in the frames after the restore: wait for the screen to show it.
  const sd = await waitForDrawn(page);
  assert.ok(sd > 10, `nothing drawn after the context came back (pixel standard deviation ${sd})`);
  const curve = await waitForScreen(page, seriesPixelsIn(400, 1270, 120, 790), (n) => n > 50);
  assert.ok(curve > 50, `the success curve is not drawn again (${curve} pixels)`);
  assert.deepStrictEqual(errors.filter((e) => !/CONTEXT_LOST|context lost/i.test(e)), []);
  await page.close();
});

test('a browser without WebGL gets a message naming what is missing', async () => {
  const server = await serveDirectory(webDir);
  const browser = await launchChromium(['--disable-webgl', '--disable-3d-apis']);
  try {
    const { page } = await openUrl(browser, `http://127.0.0.1:${server.address().port}/`, { ready: false });
    await page.waitForFunction(() => document.body.dataset.failed === '1', null, { timeout: 15000 });
    const text = await page.evaluate(() => document.getElementById('loading').textContent);
    assert.match(text, /lacks WebGL2/);
    assert.strictEqual(await page.evaluate(() => document.getElementById('loading').getAttribute('role')), 'alert');
  } finally {
    await browser.close();
    server.close();
  }
});

test('a browser without WebAssembly SIMD gets a message naming it', async () => {
  // Emulated: the page's SIMD probe (WebAssembly.validate of a v128 module) reports no support.
  const setup = (page) => page.addInitScript(() => {
    const validate = WebAssembly.validate.bind(WebAssembly);
    WebAssembly.validate = (bytes) => (new Uint8Array(bytes).includes(253) ? false : validate(bytes));
  });
  const { page } = await openUrl(env.browser, env.base, { ready: false, setup });
  await page.waitForFunction(() => document.body.dataset.failed === '1', null, { timeout: 15000 });
  const text = await page.evaluate(() => document.getElementById('loading').textContent);
  assert.match(text, /lacks WebAssembly SIMD/);
  assert.doesNotMatch(text, /WebGL2|exception/);
  await page.close();
});

test('a browser without WebAssembly exception handling gets a message naming it', async () => {
  // Emulated: the probe with try (6) / catch_all (25) reports no support.
  const setup = (page) => page.addInitScript(() => {
    const validate = WebAssembly.validate.bind(WebAssembly);
    WebAssembly.validate = (bytes) => {
      const b = new Uint8Array(bytes);
      return b.length < 40 && b.includes(25) && b.includes(6) ? false : validate(bytes);
    };
  });
  const { page } = await openUrl(env.browser, env.base, { ready: false, setup });
  await page.waitForFunction(() => document.body.dataset.failed === '1', null, { timeout: 15000 });
  const text = await page.evaluate(() => document.getElementById('loading').textContent);
  assert.match(text, /lacks WebAssembly exception handling/);
  assert.doesNotMatch(text, /SIMD|WebGL2/);
  await page.close();
});

// Records every state of the loading indicator (bar value and text) while the page loads.
const recordLoading = (page) => page.addInitScript(() => {
  window.loadingStates = [];
  new MutationObserver(() => {
    const bar = document.getElementById('loading-bar'), text = document.getElementById('loading-text');
    if (bar && text) window.loadingStates.push({ value: bar.getAttribute('value'), text: text.textContent });
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
});

test('the first frame appears quickly', async (t) => {
  const { page, errors } = await openPage();
  const firstFrame = await page.evaluate(() => performance.getEntriesByName('attnlab-first-frame')[0].startTime);
  t.diagnostic(`first frame ${firstFrame.toFixed(0)} ms after navigation (localhost, software WebGL; ` +
    'bench/first_frame.mjs measures it properly)');
  assert.ok(firstFrame < 3000, `first frame after ${firstFrame} ms`);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('on a slow network the download shows its progress', async () => {
  const slow = async (page) => {
    await recordLoading(page);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions',
      { offline: false, latency: 20, downloadThroughput: 4e6, uploadThroughput: 4e6 });  // 4 MB/s
  };
  const { page, errors } = await openUrl(env.browser, env.base, { setup: slow });
  const states = await page.evaluate(() => window.loadingStates);
  const partial = new Set(states.map((s) => Number(s.value)).filter((v) => v > 0 && v < 1));
  assert.ok(partial.size >= 3, `the bar showed ${partial.size} intermediate values`);
  assert.ok(states.some((s) => /Loading Attention Lab\.\.\. \d+ of \d+ KB/.test(s.text)));
  assert.strictEqual(await page.evaluate(() => document.getElementById('loading-bar').value), 1);
  assert.strictEqual(await page.evaluate(() => getComputedStyle(document.getElementById('loading')).display), 'none');
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('from a host that compresses, the download shows the amount received, never "1464 of 790 KB"', async () => {
  const server = await serveDirectory(webDir, { gzip: true });
  try {
    const { page, errors } = await openUrl(env.browser, `http://127.0.0.1:${server.address().port}/`, { setup: recordLoading });
    const states = await page.evaluate(() => window.loadingStates);
    assert.ok(states.some((s) => /Loading Attention Lab\.\.\. \d+ KB$/.test(s.text)), JSON.stringify(states.slice(0, 5)));
    assert.ok(!states.some((s) => / of /.test(s.text)), 'a compressed download showed a total');
    assert.deepStrictEqual(errors, []);
    await page.close();
  } finally {
    server.close();
  }
});

test('a phone: the layout fits 390 px, a drag scrolls, a tap on Run starts the experiment', async () => {
  const page = await env.browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true,
    deviceScaleFactor: 3 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(env.base + '#exp=separation.toy&preset=fig3b&seed=1&trials=20');
  await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30000 });
  await page.waitForFunction(() => JSON.parse(window.attnlab.appRunButton()).w > 0);  // Run is drawn
  const run = JSON.parse(await api(page, () => window.attnlab.appRunButton()));
  assert.ok(run.w > 0 && run.x >= 0 && run.x + run.w <= 390 && run.y + run.h <= 844, `Run is off-screen: ${JSON.stringify(run)}`);
  // High-DPI: the canvas's backing store has device pixels, so text is sharp.
  const backing = await page.evaluate(() => document.getElementById('canvas').width);
  assert.strictEqual(backing, 390 * 3);
  // A finger dragged up over the parameter panel scrolls it (ImGui alone scrolls by wheel only).
  const panel = (d, w, h) => {
    let sum = 0;
    for (let i = 4 * w * Math.floor(0.2 * h); i < 4 * w * Math.floor(0.5 * h); i += 4) sum += d[i] * 3 + d[i + 1] * 7 + d[i + 2];
    return sum;
  };
  const before = await screenshotMeasure(page, panel);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: 200, y: 330 }] });
  for (let k = 1; k <= 10; ++k) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: 200, y: 330 - 15 * k }] });
    await afterFrames(page, 1);  // one move a frame, as a finger gives them
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  // The screen changes in the frames after the drag (waited for, up to 30 s).
  assert.notStrictEqual(await waitForScreen(page, panel, (v) => v !== before), before, 'a touch drag did not scroll the panel');
  await page.touchscreen.tap(run.x + run.w / 2, run.y + run.h / 2);
  await page.waitForFunction(() => ['running', 'done'].includes(window.attnlab.appState()), null, { timeout: 10000 });
  // A phone has no hover: no tooltip stays under the lifted finger (the Run button's covered a row).
  await afterFrames(page, 8);
  assert.strictEqual(JSON.parse(await page.evaluate(() => window.attnlab.appQuestionRect())).tooltip, false,
    'a tooltip stays on screen after a tap');
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('for every experiment the CSV downloaded from the page equals the CLI\'s', async () => {
  // Every registered experiment with its small settings (smoke_settings), and one preset, seed 3.
  const { page, errors } = await openPage();
  const cases = [['separation.toy', 'fig3b', { trials: 50, sweep: 'm=1:8:1' }]];
  for (const { id } of JSON.parse(await page.evaluate(() => window.attnlab.listExperiments())))
    cases.push([id, '', JSON.parse(await page.evaluate((i) => window.attnlab.describeExperiment(i), id)).smoke_settings]);
  for (const [id, preset, params] of cases) {
    const query = Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
    const hash = `exp=${id}${preset ? '&preset=' + preset : ''}&seed=3&${query}&run=1`;
    assert.strictEqual(await page.evaluate((h) => window.attnlab.appLoadHash(h), hash), '', id);
    await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 120000 });
    const [download] = await Promise.all([page.waitForEvent('download'), api(page, () => window.attnlab.appDownload('csv'))]);
    assert.strictEqual(download.suggestedFilename(), `${id}-${preset || 'custom'}-seed3.csv`);
    const sets = Object.entries(params).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
    const cli = execFileSync(process.env.ATTNLAB_CLI, ['run', id, ...(preset ? ['--preset', preset] : []), ...sets,
      '--seed', '3', '--quiet']).toString();
    assert.strictEqual(fs.readFileSync(await download.path(), 'utf8'), cli, id);
  }
  assert.deepStrictEqual(errors, []);
  await page.close();
});
