// Browser tests of the figures for slides and papers: a heatmap exports as SVG
// (title, colour bar, the matrix embedded) and as the browser's PNG of it; the reproduction's paper
// figures export as multi-panel SVG and PNG with every panel in place. The CLI writes the same SVG.
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { openUrl, pngMeasure, useBrowser } from './browser.mjs';

const env = useBrowser();
const openPage = (hash = '') => openUrl(env.browser, env.base + (hash ? '#' + hash : ''));
const api = (page, call, arg) => page.evaluate(call, arg);

// Saves a figure through the page's export function; returns the file's name and bytes.
async function save(page, kind, index) {
  const [download, error] = await Promise.all([page.waitForEvent('download'),
    page.evaluate(([k, n]) => window.attnlab.appExportFigure(k, n), [kind, index])]);
  assert.strictEqual(error, '');
  return { name: download.suggestedFilename(), bytes: fs.readFileSync(await download.path()) };
}

// The PNG's signature and IHDR size, and how many of its pixels are near viridis's dark end and
// bright end (decoded by the page): a PNG whose embedded matrix failed to draw has none of the latter.
async function pngFacts(page, bytes) {
  assert.deepStrictEqual([...bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
  assert.strictEqual(bytes.toString('latin1', 12, 16), 'IHDR');
  const width = bytes.readUInt32BE(16), height = bytes.readUInt32BE(20);
  const colours = await pngMeasure(page, bytes, (d) => {
    const near = (i, r, g, b) => Math.abs(d[i] - r) + Math.abs(d[i + 1] - g) + Math.abs(d[i + 2] - b) < 40;
    let dark = 0, bright = 0, white = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (near(i, 68, 1, 84)) dark++;
      if (near(i, 253, 231, 37)) bright++;
      if (d[i] === 255 && d[i + 1] === 255 && d[i + 2] === 255) white++;
    }
    return { dark, bright, white };
  });
  return { width, height, ...colours };
}

// Parses an SVG in the page and returns what the tests look at.
function svgFacts(page, svg) {
  return page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const root = doc.documentElement;
    const texts = (selector) => [...doc.querySelectorAll(selector)].map((t) => t.textContent);
    const image = doc.querySelector('image#matrix');
    return {
      error: doc.querySelector('parsererror') !== null, root: root.nodeName,
      width: Number(root.getAttribute('width')), height: Number(root.getAttribute('height')),
      title: doc.querySelector('#title')?.textContent ?? null,
      figureTitle: doc.querySelector('#figure-title')?.textContent ?? null,
      bands: doc.querySelectorAll('#colour-bar rect.colour-band').length,
      barLabels: texts('#colour-bar text.colour-bar-label'),
      image: image ? image.getAttributeNS('http://www.w3.org/1999/xlink', 'href').slice(0, 22) : null,
      panels: [...doc.querySelectorAll('g.panel')].map((g) => ({ id: g.id, title: g.querySelector('text.panel-title')?.textContent,
        series: g.querySelectorAll('path.series').length })),
    };
  }, svg);
}

test('a heatmap exports as SVG with its title and colour bar, and as PNG; the CLI writes the same SVG', async () => {
  const { page, errors } = await openPage('exp=regression&preset=reference&d=2&seed=2&run=1');
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 60000 });
  const record = JSON.parse(await api(page, () => window.attnlab.appPlotsJson()));
  assert.strictEqual(record.heatmaps.length, 1);
  const svgText = await api(page, () => window.attnlab.appFigureSvg('heatmap-svg', 0));
  const svg = await svgFacts(page, svgText);
  assert.strictEqual(svg.error, false, 'the heatmap SVG does not parse');
  assert.strictEqual(svg.root, 'svg');
  assert.strictEqual(svg.title, record.heatmaps[0]);
  assert.strictEqual(svg.bands, 64, 'the colour bar has 64 bands');
  assert.ok(svg.barLabels.length >= 2, `the colour bar has ${svg.barLabels.length} tick labels`);
  assert.strictEqual(svg.image, 'data:image/png;base64,');

  const saved = await save(page, 'heatmap-svg', 0);
  assert.strictEqual(saved.name, 'regression-reference-seed2-heatmap1.svg');
  assert.strictEqual(saved.bytes.toString(), svgText);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-figures-'));
  execFileSync(process.env.ATTNLAB_CLI, ['run', 'regression', '--preset', 'reference', '--set', 'd=2', '--seed', '2',
    '--quiet', '--out', path.join(dir, 'table.csv'), '--figures', dir]);
  assert.strictEqual(fs.readFileSync(path.join(dir, 'regression-reference-seed2-heatmap1.svg'), 'utf8'), svgText);

  const png = await save(page, 'heatmap', 0);
  assert.strictEqual(png.name, 'regression-reference-seed2-heatmap1.png');
  const facts = await pngFacts(page, png.bytes);
  assert.strictEqual(facts.width, Math.round(2 * svg.width), 'the PNG is the SVG drawn at twice its size');
  assert.strictEqual(facts.height, Math.round(2 * svg.height));
  assert.ok(facts.dark > 1000 && facts.bright > 100, `the PNG shows no matrix (${JSON.stringify(facts)})`);
  assert.ok(facts.white > facts.width * facts.height * 0.2, 'the PNG has no white figure background');
  assert.match(await api(page, () => window.attnlab.appExportFigure('heatmap-svg', 3)), /heatmap 3 does not exist/);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('the reproduction exports each paper figure as one multi-panel SVG and PNG with every panel', async () => {
  const { page, errors } = await openPage('exp=separation.toy&preset=fig3b&seed=1');
  assert.match(await api(page, () => window.attnlab.appExportFigure('reproduction-svg', 0)), /no reproduction has started/);
  await api(page, () => window.attnlab.appReproduce(true));
  // Figures export at any time; wait for some results so that curves are there too.
  await page.waitForFunction(() => JSON.parse(window.attnlab.appReproductionJson()).panels.some((p) => p.points > 0),
    null, { timeout: 60000 });
  const titles = JSON.parse(await api(page, () => window.attnlab.appPlotsJson())).reproduction;
  assert.deepStrictEqual(titles.map((t) => t.split(':')[0]), ['Figure 3', 'Figure 4', 'Figure 5', 'Figure 7']);
  const panels = JSON.parse(await api(page, () => window.attnlab.reproductionPanels('separation'))).map((p) => p.panel);
  const seen = [];
  for (let k = 0; k < titles.length; ++k) {
    const svg = await svgFacts(page, await api(page, (i) => window.attnlab.appFigureSvg('reproduction-svg', i), k));
    assert.strictEqual(svg.error, false, `figure ${k}: the SVG does not parse`);
    assert.strictEqual(svg.figureTitle, titles[k]);
    for (const p of svg.panels) {
      assert.match(p.title, /^\([a-f]\) \S/, `panel ${p.id}: no letter and title`);
      seen.push(p.id.replace(/^panel-/, ''));
    }
  }
  assert.deepStrictEqual(seen.sort(), [...panels].sort(), 'every panel appears once, in some figure');
  const svg = await save(page, 'reproduction-svg', 1);
  assert.strictEqual(svg.name, 'separation-fig4-seed1.svg');
  const fig4 = await svgFacts(page, svg.bytes.toString());
  assert.deepStrictEqual(fig4.panels.map((p) => p.id), ['a', 'b', 'c', 'd', 'e', 'f'].map((l) => 'panel-fig4' + l));
  const png = await save(page, 'reproduction', 1);
  assert.strictEqual(png.name, 'separation-fig4-seed1.png');
  const facts = await pngFacts(page, png.bytes);
  assert.strictEqual(facts.width, Math.round(2 * fig4.width));
  assert.strictEqual(facts.height, Math.round(2 * fig4.height));
  assert.match(await api(page, () => window.attnlab.appExportFigure('reproduction', 9)), /paper figure 9 does not exist/);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('the CLI writes the paper figures of a reproduction as multi-panel SVGs', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-reproduce-'));
  execFileSync(process.env.ATTNLAB_CLI, ['reproduce', 'separation', '--out', dir, '--figures', dir, '--set', 'trials=3',
    '--seed', '4', '--quiet']);
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.svg')).sort();
  assert.deepStrictEqual(files, ['separation-fig3-seed4.svg', 'separation-fig4-seed4.svg', 'separation-fig5-seed4.svg',
    'separation-fig7-seed4.svg']);
  const { page } = await openPage('exp=separation.toy');
  let panels = 0;
  for (const f of files) {
    const svg = await svgFacts(page, fs.readFileSync(path.join(dir, f), 'utf8'));
    assert.strictEqual(svg.error, false, `${f} does not parse`);
    for (const p of svg.panels) assert.ok(p.series >= 1, `${f}: panel ${p.id} has no curve`);
    panels += svg.panels.length;
  }
  assert.strictEqual(panels, 19);
  await page.close();
});
