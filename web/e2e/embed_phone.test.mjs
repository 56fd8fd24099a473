// A teacher's snippet (lab/embed_snippet.hpp, as the Embed dialog and the oEmbed files give it) in a
// course page on another origin, on a phone (390 x 844) and a laptop (1280 x 800), in the ways course
// sites treat it: pasted as is; with style stripped; with width, height and style stripped (the
// browser's 300 x 150; Moodle and Canvas do not listen for the lab's height message); and as
// WordPress makes it (only src, width, height and title kept, sandbox="allow-scripts" and
// "#?secret=" added, in its 600-px content column). Each must fit the screen (no horizontal overflow,
// no taller than the screen) and be usable: at least 280 x 480 CSS pixels with the story's question
// in sight without scrolling inside the frame, or, in the 300 x 150 left when everything is
// stripped, the compact view with the question and "Open full size" in sight. Prints the embed
// table (variant x screen). Also: a sandboxed embed on a host without CORS says what the host must
// send. Env: see browser.mjs; ATTNLAB_NODE_MODULE (default: attnlab_node.cjs beside the web folder).
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterFrames, launchChromium, webDir } from './browser.mjs';
import { serveDirectory } from './static_server.mjs';

const require = createRequire(import.meta.url);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const shots = path.join(repo, 'build', 'story-shots');
const nodeModule = process.env.ATTNLAB_NODE_MODULE || path.resolve(webDir, '..', 'attnlab_node.cjs');
const USABLE = { width: 280, height: 480 };  // the least frame a story step is usable in (CSS px)
const TARGET_PX = 24;  // the least height of a prediction choice (StoryPanel::kTargetPx)
const SCREENS = [{ width: 390, height: 844 }, { width: 1280, height: 800 }];
const env = { lab: null, base: '', browser: null };

test.before(async () => {
  env.lab = await serveDirectory(webDir, { cors: true });
  env.base = `http://127.0.0.1:${env.lab.address().port}/`;
  env.browser = await launchChromium();
  fs.mkdirSync(shots, { recursive: true });
});
test.after(async () => {
  await env.browser?.close();
  env.lab?.close();
});

// The snippet for the separation story's first step, from the core's oEmbed answer.
function snippet() {
  const m = require(nodeModule)();
  const step = JSON.parse(m.listStories()).find((s) => s.id === 'separation').steps[0];
  const size = JSON.parse(m.embedDefaultSize());
  return JSON.parse(m.oembedJson(env.base, `${step.link}&embed=1`, 'Separation', size.width, size.height)).html;
}
const strip = (html, ...names) => names.reduce((h, n) => h.replace(new RegExp(` ${n}="[^"]*"`), ''), html);
// What WordPress makes of an oEmbed's iframe (wp_filter_oembed_result: kses keeps src, width, height
// and title; a sandbox and a secret are added), in a theme's 600-px column, with wp-embed.js's listener.
function wordpress(html) {
  const keep = (name) => html.match(new RegExp(` ${name}="[^"]*"`))?.[0] ?? '';
  const src = keep('src').replace(/"$/, '#?secret=Ab12Cd34Ef"');
  return {
    frame: `<div style="max-width:600px"><iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted"${
      src} data-secret="Ab12Cd34Ef"${keep('width')}${keep('height')}${keep('title')}></iframe></div>`,
    script: `addEventListener('message', (e) => {
      const d = e.data || {};
      if (d.message !== 'height' || !/^[a-zA-Z0-9]+$/.test(d.secret || '')) return;
      const f = document.querySelector('iframe[data-secret="' + d.secret + '"]');
      if (f) f.height = Math.min(1000, Math.max(200, d.value | 0)); });`,
  };
}
const VARIANTS = {
  pasted: (h) => ({ frame: h }),
  'style stripped': (h) => ({ frame: strip(h, 'style') }),
  'all stripped': (h) => ({ frame: strip(h, 'width', 'height', 'style') }),
  wordpress,
};

// A course page on 127.0.0.2 (another origin) holding `frame`, opened at `screen`; the lab frame ready.
async function coursePage({ frame, script = '' }, screen, server = env.lab) {
  const course = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(`<!doctype html><html lang="en"><meta name="viewport" content="width=device-width, initial-scale=1">
      <title>Lesson</title><h1>Lesson 3</h1><p>Try it yourself:</p>${frame}<p>Next: the exercises.</p>
      <script>${script}</script>`);
  });
  await new Promise((r) => course.listen(0, '127.0.0.2', r));
  const page = await env.browser.newPage({ viewport: screen, isMobile: screen.width < 600, hasTouch: screen.width < 600 });
  await page.goto(`http://127.0.0.2:${course.address().port}/`);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const lab = (f) => f.url().startsWith(base);
  const labFrame = page.frames().find(lab) ??
    await page.waitForEvent('framenavigated', { predicate: lab, timeout: 10000 }).catch(() => null);
  assert.ok(labFrame, 'the lab frame loaded');
  return { page, frame: labFrame, close: async () => { await page.close(); course.close(); } };
}

// The frame's box on the course page and what the lab shows inside it.
async function measure(site, screen) {
  await site.frame.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30000 });
  await site.page.waitForTimeout(300);  // a listening host resizes the frame on the lab's message
  await afterFrames(site.frame, 6);
  const box = await site.page.evaluate(() => {
    const r = document.querySelector('iframe').getBoundingClientRect();
    return { x: r.x, width: r.width, height: r.height, scrollWidth: document.documentElement.scrollWidth };
  });
  // The question's rectangle in the frame, and whether its panel shows it whole without scrolling.
  const inside = await site.frame.evaluate(() => ({ question: JSON.parse(window.attnlab.appQuestionRect()),
    width: innerWidth, height: innerHeight }));
  const q = inside.question;
  const questionSeen = q.visible && q.w > 0 && q.x >= 0 && q.y >= 0 && q.x + q.w <= inside.width + 0.5 &&
    q.y + q.h <= inside.height + 0.5;
  // Against the screen, not innerWidth: a phone widens its layout viewport to fit what overflows.
  const fits = box.x >= 0 && box.x + box.width <= screen.width + 0.5 && box.scrollWidth <= screen.width &&
    box.height <= screen.height;
  const usable = box.width >= USABLE.width && box.height >= USABLE.height;
  return { box, question: q, questionSeen, fits, usable, compact: q.compact };
}

test('the snippet fits and is usable as pasted, stripped and in WordPress, on a phone and a laptop', async () => {
  const html = snippet();
  const table = [];
  for (const [name, variant] of Object.entries(VARIANTS)) {
    for (const screen of SCREENS) {
      const site = await coursePage(variant(html), screen);
      const m = await measure(site, screen);
      await site.page.screenshot({ path: path.join(shots, `embed-${name.replace(/ /g, '-')}-${screen.width}.png`) });
      await site.close();
      // Where everything is stripped the browser's 300 x 150 is all there is: the compact view.
      // The prediction's choices are targets of at least 24 CSS px (WCAG 2.2, 2.5.8).
      const targets = m.compact || m.question.choiceHeight >= TARGET_PX;
      const works = m.fits && m.questionSeen && targets && (m.usable || (name === 'all stripped' && m.compact));
      table.push({ variant: name, screen: `${screen.width} x ${screen.height}`,
        frame: `${Math.round(m.box.width)} x ${Math.round(m.box.height)}`, fits: m.fits, question: m.questionSeen,
        choice: m.compact ? '-' : `${m.question.choiceHeight} px`, view: m.compact ? 'compact' : 'full', works });
    }
  }
  console.log('embed table (variant x screen):');
  console.table(table);
  for (const row of table) assert.ok(row.works, `does not work: ${JSON.stringify(row)}`);
});

test('a sandboxed embed on a host without CORS says what the host must send', async () => {
  const bare = await serveDirectory(webDir);  // no Access-Control-Allow-Origin
  try {
    const src = `http://127.0.0.1:${bare.address().port}/#story=separation&embed=1`;
    const site = await coursePage({ frame: `<iframe sandbox="allow-scripts" src="${src}" width="600" height="400"></iframe>` },
      SCREENS[1], bare);
    await site.frame.waitForFunction(() => document.body.dataset.failed === '1', null, { timeout: 30000 });
    const message = await site.frame.evaluate(() => document.getElementById('loading').textContent);
    await site.close();
    assert.match(message, /attnlab\.wasm/);
    assert.match(message, /Access-Control-Allow-Origin/, message);
    assert.match(message, /same origin|allow-same-origin/, message);
  } finally {
    bare.close();
  }
});

test("README's snippet is the one the core writes (lab/embed_snippet.hpp is its one home)", () => {
  const readme = fs.readFileSync(path.join(repo, 'README.md'), 'utf8');
  const shown = readme.match(/```html\n(<iframe [^\n]*<\/iframe>)\n```/)?.[1];
  assert.ok(shown, "README.md's embedding section has no ```html iframe block");
  const m = require(nodeModule)();
  const size = JSON.parse(m.embedDefaultSize());
  const made = JSON.parse(m.oembedJson('https://YOUR-HOST/attnlab/', 'story=separation&step=2&embed=1',
    'Why Softmax Attention Outperforms Linear Attention', size.width, size.height)).html;
  assert.strictEqual(shown, made);
});
