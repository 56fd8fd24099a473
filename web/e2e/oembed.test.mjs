// Links that course sites turn into embeds: the oEmbed files scripts/oembed.mjs
// writes into a built site (one per story, story step and preset, each with a page to paste that
// names it), the page's discovery link, and embeds that keep working on another origin when the
// course site strips the iframe's allow=, sandbox=, width= and height=, or adds WordPress's sandbox
// and "#?secret=". Env: see browser.mjs; ATTNLAB_NODE_MODULE (default: attnlab_node.cjs beside the
// web folder).
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterFrames, launchChromium, webDir } from './browser.mjs';
import { serveDirectory } from './static_server.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const nodeModule = process.env.ATTNLAB_NODE_MODULE || path.resolve(webDir, '..', 'attnlab_node.cjs');
const env = { site: '', unbuilt: undefined, server: null, base: '', browser: null };
const discovery = (html) => html.match(/<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/)?.[1];

test.before(async () => {
  env.site = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-site-'));
  fs.cpSync(webDir, env.site, { recursive: true });
  // A build without oEmbed files advertises none (a discovery link would answer 404).
  env.unbuilt = discovery(fs.readFileSync(path.join(env.site, 'index.html'), 'utf8'));
  env.server = await serveDirectory(env.site, { cors: true });
  env.base = `http://127.0.0.1:${env.server.address().port}/`;
  execFileSync(process.execPath, [path.join(repo, 'scripts', 'oembed.mjs'), env.site, env.base, nodeModule]);
  env.browser = await launchChromium();
});
test.after(async () => {
  await env.browser?.close();
  env.server?.close();
  fs.rmSync(env.site, { recursive: true, force: true });
});

const get = async (url) => {
  const r = await fetch(url);
  assert.strictEqual(r.status, 200, url);
  return r.text();
};
const unescape = (s) => s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&lt;/g, '<');

test('every story, step and preset has an oEmbed file and a page to paste that names it', async () => {
  const lab = JSON.parse(execFileSync(process.execPath, ['-e', `
    const m = require(${JSON.stringify(nodeModule)})();
    const stories = JSON.parse(m.listStories());
    const presets = JSON.parse(m.listExperiments()).flatMap(({ id }) =>
      JSON.parse(m.describeExperiment(id)).presets.map((p) => [id, p.name]));
    process.stdout.write(JSON.stringify({ stories, presets }));`]).toString());
  const states = [['lab', '']];
  for (const s of lab.stories) {
    states.push([`story-${s.id}`, s.steps[0].link]);
    s.steps.forEach((step, k) => states.push([`story-${s.id}-${k + 1}`, step.link]));
  }
  for (const [id, preset] of lab.presets) states.push([`${id}-${preset}`, `exp=${id}&preset=${preset}`]);
  assert.strictEqual(fs.readdirSync(path.join(env.site, 'oembed')).length, states.length);
  assert.strictEqual(env.unbuilt, undefined, 'the page names an oEmbed file before any is built');
  // The page itself: its discovery link is absolute and answers for the start page; once only,
  // however often the files are written.
  execFileSync(process.execPath, [path.join(repo, 'scripts', 'oembed.mjs'), env.site, env.base, nodeModule]);
  assert.strictEqual((await get(env.base)).match(/json\+oembed/g).length, 1);
  assert.strictEqual(discovery(await get(env.base)), env.base + 'oembed/lab.json');
  for (const [name, hash] of states) {
    const paste = await get(`${env.base}embed/${name}.html`);
    assert.strictEqual(discovery(paste), `${env.base}oembed/${name}.json`, name);
    const o = JSON.parse(await get(`${env.base}oembed/${name}.json`));
    assert.strictEqual(o.version, '1.0');
    assert.strictEqual(o.type, 'rich');
    assert.strictEqual(o.provider_url, env.base);
    assert.ok(o.width > 0 && o.height > 0 && o.title.length > 0, name);
    const src = unescape(o.html.match(/ src="([^"]+)"/)[1]);
    assert.strictEqual(src, env.base + (hash ? `#${hash}&embed=1` : ''), name);
    // A visitor who opens the pasted link lands on the lab at that state.
    assert.ok(paste.includes(`location.replace(${JSON.stringify('../' + (hash ? '#' + hash : ''))})`), name);
  }
});

// A course site on another origin (127.0.0.2) that pastes an oEmbed's iframe after `mangle`.
async function coursePage(html, hostScript = '') {
  const course = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(`<!doctype html><title>course</title><div style="width:900px">${html}</div><script>${hostScript}</script>`);
  });
  await new Promise((r) => course.listen(0, '127.0.0.2', r));
  const page = await env.browser.newPage({ viewport: { width: 1000, height: 1200 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`http://127.0.0.2:${course.address().port}/`);
  await page.waitForFunction(() => document.querySelector('iframe'));
  const lab = (f) => f.url().startsWith(env.base);
  const frame = page.frames().find(lab) ??
    await page.waitForEvent('framenavigated', { predicate: lab, timeout: 10000 }).catch(() => null);
  assert.ok(frame, 'the lab frame loaded');
  await frame.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30000 });
  return { page, frame, errors, close: async () => { await page.close(); course.close(); } };
}
// The frame's inner size (a bare iframe keeps the browser's 2 px inset border around it).
const box = (page) => page.evaluate(() => {
  const f = document.querySelector('iframe');
  return { width: f.clientWidth, height: f.clientHeight };
});
const strip = (html, ...names) => names.reduce((h, n) => h.replace(new RegExp(` ${n}="[^"]*"`), ''), html);

test('embeds keep working when the course site strips allow=, sandbox=, width= and height=', async () => {
  const first = JSON.parse(fs.readFileSync(path.join(env.site, 'oembed', fs.readdirSync(path.join(env.site, 'oembed'))
    .find((f) => /^story-[a-z]+-2\.json$/.test(f))), 'utf8'));
  const story = first.html.match(/story=([a-z]+)&amp;step=2/)[1];
  // 1. Only width and height gone (style kept): the snippet's style sizes the frame (the column's
  // width, its aspect-ratio's height, at least kEmbedMinHeight: lab/embed_snippet.hpp).
  let site = await coursePage(strip(first.html, 'width', 'height', 'allow', 'sandbox'));
  assert.deepStrictEqual(await box(site.page), { width: 900, height: 640 });
  const step = JSON.parse(await site.frame.evaluate(() => window.attnlab.appPageJson())).story;
  assert.deepStrictEqual([step.story, step.step], [story, 2]);
  assert.strictEqual(JSON.parse(await site.frame.evaluate(() => window.attnlab.appEmbedJson())).embed, true);
  await site.frame.evaluate(() => { window.attnlab.appPredict(0); window.attnlab.appRun(); });
  await site.frame.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 120000 });
  await afterFrames(site.frame, 4);  // the frames after 'done' are drawn
  await site.page.screenshot({ path: path.join(repo, 'build', 'story-shots', 'oembed-aspect.png') });
  assert.deepStrictEqual(site.errors, []);
  await site.close();
  // 2. Every attribute but src gone (the browser's 300 x 150): the lab asks its host for a height,
  // and a host that listens gives it.
  const bare = `<iframe src="${first.html.match(/ src="([^"]+)"/)[1]}"></iframe>`;
  site = await coursePage(bare, `addEventListener('message', (e) => {
    if (e.data && e.data.type === 'attnlab:height') document.querySelector('iframe').style.height = e.data.height + 'px'; });`);
  await site.page.waitForFunction(() => document.querySelector('iframe').getBoundingClientRect().height > 150);
  assert.deepStrictEqual(await box(site.page), { width: 300, height: 760 });
  assert.strictEqual(JSON.parse(await site.frame.evaluate(() => window.attnlab.appPageJson())).story.step, 2);
  await site.frame.evaluate(() => { window.attnlab.appPredict(0); window.attnlab.appRun(); });
  await site.frame.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 120000 });
  await afterFrames(site.frame, 4);  // the frames after 'done' are drawn
  await site.page.screenshot({ path: path.join(repo, 'build', 'story-shots', 'oembed-bare.png') });
  assert.deepStrictEqual(site.errors, []);
  await site.close();
});

test('a WordPress-style embed (sandbox="allow-scripts", "#?secret=") reads its link and is resized', async () => {
  const o = JSON.parse(fs.readFileSync(path.join(env.site, 'oembed', 'separation.toy-fig3b.json'), 'utf8'));
  // What WordPress makes of an oEmbed from a site it does not know (wp_filter_oembed_result).
  const src = o.html.match(/ src="([^"]+)"/)[1] + '#?secret=Ab12Cd34Ef';
  const html = `<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" src="${src}"
    data-secret="Ab12Cd34Ef" width="600" height="338" title="lab"></iframe>`;
  // wp-embed.js in brief: a "height" message with the frame's secret sets its height (200 to 1000).
  const site = await coursePage(html, `addEventListener('message', (e) => {
    const d = e.data || {};
    if (d.message !== 'height' || !/^[a-zA-Z0-9]+$/.test(d.secret || '')) return;
    const f = document.querySelector('iframe[data-secret="' + d.secret + '"]');
    if (f) f.height = Math.min(1000, Math.max(200, d.value | 0)); });`);
  await site.page.waitForFunction(() => document.querySelector('iframe').height !== '338');
  assert.deepStrictEqual(await box(site.page), { width: 600, height: 760 });
  const hash = await site.frame.evaluate(() => window.attnlab.appHash());
  assert.match(hash, /^exp=separation\.toy&preset=fig3b&/);
  assert.strictEqual(await site.frame.evaluate(() => self.origin), 'null', 'the frame is sandboxed');
  await site.frame.evaluate(() => window.attnlab.appLoadHash('exp=separation.toy&preset=fig3b&trials=20&embed=1&run=1'));
  await site.frame.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 60000 });
  assert.deepStrictEqual(site.errors, []);
  await site.close();
});
