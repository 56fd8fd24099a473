// The hosted site as scripts/build-site.sh writes it, served by nginx (Debian's, scripts/setup.sh)
// under a sub-path as GitHub Pages and course servers do (http://127.0.0.1:PORT/attnlab/), with
// the MIME types and headers README "Hosting" gives, opened in headless Chromium: the start page, a
// story, an embed page, the SCORM packages of every story (docs/scorm.md), a reopening with the
// network cut (the service worker), and a redeploy: the content-hashed addresses of the module files
// (web/offline/version_refs.mjs, docs/design.md "Content hashes") and the old cache dropped.
// Env: ATTNLAB_SITE_DIR (the built site), NODE_PATH containing playwright-core. nginx runs as this
// user from a temporary configuration (no daemon, no master process, logs in the temporary folder).
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { launchChromium, openUrl } from './browser.mjs';
import { versionRefs } from '../offline/version_refs.mjs';

const site = process.env.ATTNLAB_SITE_DIR;
const NGINX = process.env.NGINX || '/usr/sbin/nginx';
const env = { nginx: null, browser: null, base: '', tmp: '' };
// `node --test web/e2e/` (scripts/test.sh step 4) has no built site: this file is step 6's.
const skip = site ? false : 'ATTNLAB_SITE_DIR is not set: scripts/test.sh runs this file in its step "hosted site"';

const freePort = () => new Promise((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

// README "Hosting": .wasm as application/wasm, .mjs as text/javascript, and
// Access-Control-Allow-Origin on .wasm, .mjs and .js; gzip as hosts do.
function nginxConf(tmp, port) {
  return `daemon off;
master_process off;
error_log ${tmp}/error.log warn;
pid ${tmp}/nginx.pid;
events { worker_connections 64; }
http {
  types {
    text/html html; text/javascript js mjs; application/wasm wasm; application/json json; text/css css;
    image/png png; image/svg+xml svg; application/xml xml; application/zip zip; text/plain txt ts;
  }
  default_type application/octet-stream;
  access_log off;
  client_body_temp_path ${tmp}/body; proxy_temp_path ${tmp}/proxy; fastcgi_temp_path ${tmp}/fastcgi;
  uwsgi_temp_path ${tmp}/uwsgi; scgi_temp_path ${tmp}/scgi;
  gzip on; gzip_types text/javascript application/wasm application/json;
  server {
    listen 127.0.0.1:${port};
    root ${tmp}/www;
    # no-cache: the browser's HTTP cache revalidates, so only the service worker answers offline.
    add_header Cache-Control no-cache;
    location /attnlab/ { }
    location ~ ^/attnlab/.*\\.(wasm|mjs|js)$ { add_header Access-Control-Allow-Origin *; add_header Cache-Control no-cache; }
  }
}
`;
}

test.before(async () => {
  if (skip) return;
  assert.ok(site && fs.existsSync(path.join(site, 'index.html')), 'ATTNLAB_SITE_DIR must name a site built by scripts/build-site.sh');
  assert.ok(fs.existsSync(NGINX), `${NGINX} is missing: scripts/setup.sh installs nginx-light`);
  env.tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-nginx-'));
  fs.mkdirSync(path.join(env.tmp, 'www'));
  fs.cpSync(path.resolve(site), path.join(env.tmp, 'www', 'attnlab'), { recursive: true });  // a copy: the test redeploys it
  const port = await freePort();
  fs.writeFileSync(path.join(env.tmp, 'nginx.conf'), nginxConf(env.tmp, port));
  env.nginx = spawn(NGINX, ['-p', env.tmp, '-e', path.join(env.tmp, 'error.log'), '-c', path.join(env.tmp, 'nginx.conf')],
    { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  env.nginx.stderr.on('data', (d) => { stderr += d; });
  env.base = `http://127.0.0.1:${port}/attnlab/`;
  for (let i = 0; ; i += 1) {  // until nginx answers (it writes its pid file once listening)
    try { if ((await fetch(env.base)).ok) break; } catch (e) { /* not yet */ }
    if (env.nginx.exitCode !== null || i > 100) throw new Error(`nginx did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  env.browser = await launchChromium();
});
test.after(async () => {
  await env.browser?.close();
  if (env.nginx && env.nginx.exitCode === null) env.nginx.kill('SIGTERM');
  if (env.tmp) fs.rmSync(env.tmp, { recursive: true, force: true });
});

test('nginx serves the files with the MIME types and headers of README "Hosting"', { skip }, async () => {
  const head = async (file) => {
    const r = await fetch(env.base + file, { headers: { 'Accept-Encoding': 'gzip' } });
    await r.arrayBuffer();
    return { status: r.status, type: r.headers.get('content-type'), cors: r.headers.get('access-control-allow-origin') };
  };
  assert.deepStrictEqual(await head('attnlab.wasm'), { status: 200, type: 'application/wasm', cors: '*' });
  assert.deepStrictEqual(await head('attnlab.js'), { status: 200, type: 'text/javascript', cors: '*' });
  assert.deepStrictEqual(await head('attnlab-api.mjs'), { status: 200, type: 'text/javascript', cors: '*' });
  assert.strictEqual((await head('index.html')).type, 'text/html');
});

test('under /attnlab/: the start page, a story and an embed page open in Chromium', { skip }, async () => {
  const start = await openUrl(env.browser, env.base);
  assert.strictEqual(await start.page.evaluate(() => JSON.parse(window.attnlab.appPageJson()).page), 'start');
  const stories = JSON.parse(await start.page.evaluate(() => window.attnlab.listStories()));
  assert.ok(stories.length > 0);
  assert.deepStrictEqual(start.errors, []);
  await start.page.close();

  const id = stories[0].id;
  const story = await openUrl(env.browser, `${env.base}#story=${id}&step=2`);
  const st = await story.page.evaluate(() => JSON.parse(window.attnlab.appPageJson()).story);
  assert.deepStrictEqual([st.story, st.step], [id, 2]);
  assert.deepStrictEqual(story.errors, []);
  await story.page.close();

  // The page to paste into a course site: it names its oEmbed file and sends a visitor on.
  const shown = (p) => p.evaluate(() => [JSON.parse(window.attnlab.appPageJson()).story, JSON.parse(window.attnlab.appEmbedJson()).embed])
    .then(([s, e]) => [s.story, s.step, e]);
  const paste = await openUrl(env.browser, `${env.base}embed/story-${id}-3.html`);
  assert.strictEqual(new URL(paste.page.url()).pathname, '/attnlab/');
  assert.deepStrictEqual(await shown(paste.page), [id, 3, false]);
  assert.deepStrictEqual(paste.errors, []);
  await paste.page.close();
  // The embed a course site makes of it: the oEmbed file's iframe, at this server's address.
  const oembed = await (await fetch(`${env.base}oembed/story-${id}-3.json`)).json();
  const src = oembed.html.match(/src="([^"]+)"/)[1].replace(/&amp;/g, '&');
  const frame = await openUrl(env.browser, env.base + src.slice(src.indexOf('#')));
  assert.deepStrictEqual(await shown(frame.page), [id, 3, true]);
  assert.deepStrictEqual(frame.errors, []);
  await frame.page.close();
});

test('scorm/ holds a SCORM 1.2 and a SCORM 2004 package for every story', { skip }, async () => {
  const { page } = await openUrl(env.browser, env.base);
  const ids = JSON.parse(await page.evaluate(() => window.attnlab.listStories())).map((s) => s.id);
  await page.close();
  for (const id of ids) {
    for (const v of ['scorm12', 'scorm2004']) {
      const r = await fetch(`${env.base}scorm/attnlab-story-${id}-${v}.zip`);
      const bytes = Buffer.from(await r.arrayBuffer());
      assert.strictEqual(r.status, 200, `${id} ${v}`);
      assert.strictEqual(r.headers.get('content-type'), 'application/zip');
      assert.strictEqual(bytes.subarray(0, 4).toString('binary'), 'PK\x03\x04', `${id} ${v}: a zip`);
      assert.ok(bytes.includes(Buffer.from('imsmanifest.xml')), `${id} ${v}: has imsmanifest.xml`);
    }
  }
});

test('after a first visit, the page and a story reopen without a network (the service worker)', { skip }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(env.base);
  await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30000 });
  // The worker has installed its cache and controls the page.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
  await context.setOffline(true);
  await page.goto(`${env.base}#story=separation&step=2`);
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30000 });
  const st = await page.evaluate(() => JSON.parse(window.attnlab.appPageJson()).story);
  assert.deepStrictEqual([st.story, st.step], ['separation', 2]);
  // It computes offline too: the run uses the worker module from the cache.
  await page.evaluate(() => window.attnlab.appPredict(0));
  await page.evaluate(() => window.attnlab.appRunControl('run'));
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 120000 });
  assert.strictEqual(JSON.parse(await page.evaluate(() => window.attnlab.appComputeJson())).workers, true, 'computed on workers');
  assert.deepStrictEqual(errors, []);
  await context.close();
});

test('a redeploy: an open page keeps its own files; the next visit fetches the new addresses, the old cache gone', { skip }, async () => {
  const served = path.join(env.tmp, 'www', 'attnlab');
  const context = await env.browser.newContext();
  let page = await context.newPage();
  await page.goto(env.base);
  await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30000 });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
  const before = await page.evaluate(() => caches.keys());
  // The twin's address as the page asked for it: versioned by its contents (web/offline/version_refs.mjs).
  const asked = (p) => p.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name)
    .filter((n) => /\/twin\.js/.test(n)).map((n) => n.slice(n.lastIndexOf('/') + 1)));
  const [oldTwin] = await asked(page);
  assert.match(oldTwin, /^twin\.js\?v=[0-9a-f]{12}$/);
  // Versioned again unchanged, the addresses stay (they name the contents, nothing else).
  const first = versionRefs(served).files;
  assert.strictEqual(first['twin.js'], oldTwin, 'an unchanged file keeps its address');
  // The deploy: a changed twin.js and worker module, the site versioned again as build-site.sh does.
  fs.appendFileSync(path.join(served, 'twin.js'), '\n// redeployed\n');
  fs.appendFileSync(path.join(served, 'attnlab_worker.js'), '\n// redeployed\n');
  const { version, files } = versionRefs(served);
  assert.notStrictEqual(files['twin.js'], oldTwin, 'a changed file gets a new address');
  // ... and so does every file that names it, down the chain (unit_pool.js -> unit_worker.js -> it).
  for (const f of ['attnlab_worker.js', 'unit_worker.js', 'unit_pool.js']) assert.notStrictEqual(files[f], first[f], f);
  for (const f of ['attnlab.js', 'attnlab.wasm', 'attnlab_worker.wasm']) assert.strictEqual(files[f], first[f], f);
  const twin = () => page.evaluate(() => fetch('twin.js').then((r) => r.text()));
  assert.ok(!(await twin()).includes('// redeployed'), 'the open page is served its own version');
  await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
  // ... and wait until the new version has installed (its cache filled, no worker installing).
  for (let i = 0; ; i += 1) {
    const s = await page.evaluate(async () => ({ keys: await caches.keys(), installing: !!(await navigator.serviceWorker.getRegistration()).installing }));
    if (s.keys.includes(`attnlab-${version}`) && !s.installing) break;
    assert.ok(i < 300, `the new version never installed: ${JSON.stringify(s)}`);
    await page.waitForTimeout(100);
  }
  assert.ok(!(await twin()).includes('// redeployed'), 'still, with the new version installed and waiting');
  await page.close();
  // With no page of the old version open, the new one takes over (watched from outside its scope).
  page = await context.newPage();
  await page.goto(new URL('/', env.base).href);
  for (let i = 0; ; i += 1) {
    const keys = await page.evaluate(() => caches.keys());
    if (keys.length === 1 && keys[0] === `attnlab-${version}`) break;
    assert.ok(i < 300, `the new version never took over: caches ${keys}`);
    await page.waitForTimeout(100);
  }
  await page.goto(env.base);
  await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30000 });
  assert.deepStrictEqual(await asked(page), [files['twin.js']], 'the next visit asks for the new address');
  assert.ok((await twin()).includes('// redeployed'), 'and gets the new file');
  assert.deepStrictEqual(await page.evaluate(() => caches.keys()), [`attnlab-${version}`], 'the old cache is gone');
  // The kept addresses are the new version's, the old twin's not among them.
  const kept = await page.evaluate(async (name) => (await (await caches.open(name)).keys()).map((r) => r.url.slice(r.url.lastIndexOf('/') + 1)),
    `attnlab-${version}`);
  assert.deepStrictEqual(kept.filter((u) => u.startsWith('twin.js')), [files['twin.js']]);
  assert.ok(Object.values(files).every((f) => kept.includes(f)), `the new set is kept: ${kept}`);
  assert.strictEqual(before.length, 1);
  await context.close();
});
