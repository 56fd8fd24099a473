// WCAG 1.4.3 on the canvas, beyond axe's reach (docs/design.md, "Contrast on the canvas"): every
// text the canvas draws, in every theme, on the start page, a story step before and after Run and a
// preset's results, is at least 4.5:1 against what lies behind it (3:1 from 24 px). The colours come
// from the app's draw data (appTextRunsJson: each run of glyphs, its colour and the colour
// composited behind it) and are checked against the screenshot's pixels: the background is the
// commonest pixel of the run's box, the ink the pixel farthest from it. Behind a text over an image
// (a heatmap) the background is the screenshot's. Env: see browser.mjs.
import test from 'node:test';
import assert from 'node:assert';
import { afterFrames, openUrl, pngMeasure, useBrowser } from './browser.mjs';

const env = useBrowser();

const hexRgb = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
const lum = (c) => {
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
};
export const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
const least = (run) => (run.fontPx >= 24 ? 3 : 4.5);  // WCAG's large text: 24 px (18.66 px bold; the canvas has no bold)

// The pages measured: what a student sees, with every kind of canvas text.
const THEMES = ['dark', 'light', 'contrast'];
const STEP = 'story=separation&step=1';
const VIEWS = [
  { name: 'start page', hash: '' },
  { name: 'story step, before Run', hash: STEP },
  { name: 'story step, after Run', hash: STEP, predictAndRun: true },
  { name: 'heatmaps with ringed entries', hash: 'story=separation&step=4' },
  { name: 'preset results', hash: 'exp=regression&preset=reference&seed=1', run: true },
];

// Per run: the screenshot's background (commonest pixel) and ink (farthest from it) in its box.
async function shotColours(page, runs) {
  const canvas = await page.evaluate(() => { const r = document.getElementById('canvas').getBoundingClientRect(); return [r.x, r.y]; });
  return pngMeasure(page, await page.screenshot(), (d, width, height, { boxes, at }) => {
    const lum = (p) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * f(p[0]) + 0.7152 * f(p[1]) + 0.0722 * f(p[2]); };
    return boxes.map((b) => {
      const counts = new Map(), pixels = [];
      for (let y = Math.ceil(b.y + at[1]); y < Math.floor(b.y + b.h + at[1]); y++) {
        for (let x = Math.ceil(b.x + at[0]); x < Math.floor(b.x + b.w + at[0]); x++) {
          if (x < 0 || y < 0 || x >= width || y >= height) continue;
          const i = 4 * (y * width + x), p = [d[i], d[i + 1], d[i + 2]], k = p.join(',');
          counts.set(k, (counts.get(k) || 0) + 1);
          pixels.push(p);
        }
      }
      if (!pixels.length) return null;
      const bg = [...counts].sort((p, q) => q[1] - p[1])[0][0].split(',').map(Number);
      const lb = lum(bg);
      const ink = pixels.reduce((m, p) => (Math.abs(lum(p) - lb) > Math.abs(lum(m) - lb) ? p : m), bg);
      return { bg, ink };
    });
  }, { boxes: runs.map((r) => ({ x: r.x, y: r.y, w: r.w, h: r.h })), at: canvas });
}

async function openView(theme, view) {
  const { page, errors } = await openUrl(env.browser, env.base + `#${view.hash}${view.hash ? '&' : ''}theme=${theme}&threads=1`);
  await page.waitForFunction(() => window.attnlab.twinRender !== undefined);
  if (view.predictAndRun || view.run) {
    await page.evaluate((predict) => {
      if (predict) window.attnlab.appPredict(0);
      window.attnlab.appRunControl('run');
    }, !!view.predictAndRun);
    await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 120000 });
  }
  // The start page's cards compute their figures: the screen holds still once they are drawn.
  if (!view.hash) await page.waitForFunction(() => JSON.parse(window.attnlab.appPageJson()).cards.cards.every((c) => c.fraction === 1), null, { timeout: 120000 });
  await page.mouse.move(1, 799);  // no hover colour on any control
  await afterFrames(page, 12);
  return { page, errors };
}

test('contrast: every canvas text is at least 4.5:1 in every theme (draw data, checked on screenshots)', async () => {
  const rows = new Map();  // theme|role|text colour|background -> worst ratio, count, a sample
  const failures = [];
  let checked = 0, agreedBg = 0, agreedInk = 0;
  for (const theme of THEMES) {
    for (const view of VIEWS) {
      const { page, errors } = await openView(theme, view);
      const runs = JSON.parse(await page.evaluate(() => window.attnlab.appTextRunsJson()));
      const shot = await shotColours(page, runs);
      // The draw data must be the frame on screen: it and the screenshot agree on most runs.
      assert.ok(runs.length > 20, `${theme}, ${view.name}: texts found in the draw data (${runs.length})`);
      runs.forEach((run, k) => {
        const s = shot[k];
        if (!s) return;
        let fg = hexRgb(run.shown), bg = hexRgb(run.background);
        // Over an image the background is the screenshot's, the text the run's colour blended on it.
        if (run.overImage) {
          const a = parseInt(run.colour.slice(7, 9), 16) / 255;
          bg = s.bg, fg = hexRgb(run.colour).map((v, i) => Math.round(v * a + bg[i] * (1 - a)));
        }
        else {
          checked++;
          if (Math.max(...bg.map((v, i) => Math.abs(v - s.bg[i]))) <= 3) agreedBg++;
          if (Math.max(...fg.map((v, i) => Math.abs(v - s.ink[i]))) <= 24) agreedInk++;
        }
        const r = ratio(fg, bg);
        const role = (run.roles || 'other') + (run.overImage ? ', over an image' : '');
        const key = [theme, role, '#' + fg.map((v) => v.toString(16).padStart(2, '0')).join(''),
          '#' + bg.map((v) => v.toString(16).padStart(2, '0')).join('')].join('|');
        const row = rows.get(key) || { ratio: Infinity, n: 0, sample: '', where: view.name };
        if (r < row.ratio) Object.assign(row, { ratio: r, sample: run.text.slice(0, 28), where: view.name });
        row.n++;
        rows.set(key, row);
        if (r < least(run)) failures.push(`${theme}, ${view.name}: "${run.text.slice(0, 40)}" ${key.split('|').slice(1).join(' on ')} = ${r.toFixed(2)}:1`);
      });
      assert.deepStrictEqual(errors, [], `${theme}, ${view.name}: no page errors`);
      await page.close();
    }
  }
  console.log('| theme | text role | colour | background | least ratio | runs | e.g. (where) |\n|---|---|---|---|---|---|---|\n' +
    [...rows].sort((a, b) => a[1].ratio - b[1].ratio).map(([k, v]) => {
      const [theme, role, fg, bg] = k.split('|');
      return `| ${theme} | ${role} | ${fg} | ${bg} | ${v.ratio.toFixed(2)} | ${v.n} | "${v.sample}" (${v.where}) |`;
    }).join('\n'));
  console.log(`screenshot agreement: background ${agreedBg} of ${checked} runs, ink ${agreedInk} of ${checked}`);
  assert.ok(agreedBg >= 0.95 * checked, `the draw data's backgrounds are the screenshot's (${agreedBg} of ${checked})`);
  assert.ok(agreedInk >= 0.8 * checked, `the draw data's text colours are the screenshot's (${agreedInk} of ${checked})`);
  assert.deepStrictEqual(failures, [], 'every canvas text at least 4.5:1 (3:1 from 24 px)');
});
