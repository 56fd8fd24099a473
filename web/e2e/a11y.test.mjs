// Accessibility of the page: axe-core's WCAG 2 A and AA rules on the start page, the
// first step of every story, the free lab of every experiment, an embed and the text view; and a
// story step completed through the text twin (web/twin.js) with the keyboard only.
// Env: see browser.mjs; NODE_PATH must also hold axe-core (scripts/setup.sh installs both).
// ATTNLAB_A11Y_REPORT: a file to write every page's violations to (all impacts), as JSON.
import test from 'node:test';
import assert from 'node:assert';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { openUrl, useBrowser } from './browser.mjs';

const require = createRequire(import.meta.url);
const axePath = require.resolve('axe-core/axe.min.js');
const env = useBrowser();
const openPage = (hash = '', options = {}) => openUrl(env.browser, env.base + (hash ? '#' + hash : ''), options);
const report = [];

// axe's results on the page as it is now: {violations, incomplete}, each [{id, impact, help, nodes:
// [{target, why}]}] (why: axe's message for a node it could not decide).
async function axeResults(page) {
  await page.addScriptTag({ path: axePath });
  const result = await page.evaluate(() => window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } }));
  const brief = (v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({
    target: n.target.join(' '), why: [...n.any, ...n.all, ...n.none].map((c) => c.message).join('; ') })) });
  return { violations: result.violations.map(brief), incomplete: result.incomplete.map(brief) };
}

// What axe could not decide ("incomplete") is judged here, rule by rule: a serious or critical
// one fails unless it is listed with the reason it was checked otherwise.
const ACCEPTED_INCOMPLETE = {
};
const serious = (v) => v.impact === 'serious' || v.impact === 'critical';

// The twin (web/twin.js) is clipped to 1 px until a control in it has the keyboard; it is checked
// as it then shows (a panel over the canvas), where axe's contrast rule sees its text.
async function showTwin(page) {
  await page.waitForFunction(() => window.attnlab.twinRender !== undefined);  // the twin has started
  await page.waitForFunction(() => document.querySelector('#twin button') !== null);
  if (!(await page.evaluate(() => document.body.classList.contains('text-view')))) await page.focus('#twin button');
  const box = await page.locator('#twin').boundingBox();
  assert.ok(box.width > 300 && box.height > 300, `the twin shows (${JSON.stringify(box)})`);
}

async function checkPage(name, hash, { ready = null, ...options } = {}) {
  const { page, errors } = await openPage(hash, options);
  if (ready) await ready(page);
  await showTwin(page);
  const { violations, incomplete } = await axeResults(page);
  report.push({ page: name, hash, violations, incomplete });
  const list = (vs) => vs.map((v) => `${v.id} [${v.impact}] x${v.nodes.length}`).join(', ');
  console.log(`axe ${name} (#${hash}): ${violations.length} violation(s)${violations.length ? ': ' + list(violations) : ''}; ` +
    `${incomplete.length} undecided${incomplete.length ? ': ' + list(incomplete) : ''}`);
  assert.deepStrictEqual(violations.filter(serious), [], `${name}: serious or critical violations`);
  const undecided = incomplete.filter((v) => serious(v) && !ACCEPTED_INCOMPLETE[v.id]);
  assert.deepStrictEqual(undecided, [], `${name}: serious or critical checks axe could not decide`);
  assert.deepStrictEqual(errors, [], name);
  await page.close();
}

// Waits for the run to finish and for the twin to show it by its own refresh (its poll), not forced.
async function twinShowsDone(page) {
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 120000 });
  await page.waitForFunction(() => [...document.querySelectorAll('[data-twin-section="results"] caption')]
    .some((c) => /^(Results table|The run's whole table.*) \(the run complete\)/.test(c.textContent)), null, { timeout: 10000 });
}

test.after(() => {
  if (process.env.ATTNLAB_A11Y_REPORT) writeFileSync(process.env.ATTNLAB_A11Y_REPORT, JSON.stringify(report, null, 1));
});

test('axe: no serious or critical WCAG 2 A/AA violations on every kind of page', async () => {
  await checkPage('start page', '');
  const { page } = await openPage();
  const stories = JSON.parse(await page.evaluate(() => window.attnlab.listStories()));
  const experiments = JSON.parse(await page.evaluate(() => window.attnlab.listExperiments()));
  await page.close();
  // A step that runs by itself is checked once its run is done (mid-run, a table's columns are empty).
  for (const s of stories) await checkPage(`story ${s.id}, step 1`, `story=${s.id}&step=1`, { ready: s.steps[0].run ? twinShowsDone : null });
  for (const e of experiments) await checkPage(`free lab ${e.id}`, `exp=${e.id}`);
  await checkPage('embed', 'exp=separation.toy&embed=1&hide=seed,export');
  await checkPage('text view, start page', 'view=text');
  await checkPage('text view, story step', `story=${stories[0].id}&step=1&view=text`);
  await checkPage('text view, lab after a run', 'exp=separation.toy&n=300&trials=100&sweep=m%3D1%3A5%3A1&view=text&run=1',
    { ready: twinShowsDone });
});

test('view=text shows the twin instead of the canvas and stays in the link', async () => {
  const { page, errors } = await openPage('exp=separation.toy&view=text');
  assert.match(await page.evaluate(() => window.attnlab.appHash()), /(^|&)view=text(&|$)/);
  await page.waitForFunction(() => document.body.classList.contains('text-view'));
  assert.strictEqual(await page.evaluate(() => getComputedStyle(document.getElementById('canvas')).display), 'none');
  const box = await page.locator('#twin').boundingBox();
  assert.ok(box.width > 600 && box.height > 400, 'the twin fills the page');
  // The switch turns it off again, and the link follows.
  await page.getByRole('button', { name: 'Text view' }).click();
  await page.waitForFunction(() => !document.body.classList.contains('text-view'));
  assert.doesNotMatch(await page.evaluate(() => window.attnlab.appHash()), /view=text/);
  // A view the page does not have is refused with the allowed ones.
  assert.match(await page.evaluate(() => window.attnlab.appLoadHash('exp=separation.toy&view=pdf')), /allowed: results, inspector or text/);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('the twin follows the canvas and drives it: a parameter both ways, a refused value announced', async () => {
  const { page, errors } = await openPage('exp=separation.toy&n=300&trials=100');
  await page.waitForFunction(() => window.attnlab.twinRender !== undefined);
  // App -> twin.
  await page.evaluate(() => window.attnlab.appLoadHash('exp=separation.toy&n=300&trials=100&tau=0.3'));
  await page.waitForFunction(() => document.getElementById('twin-p-tau')?.value === '0.3');
  // twin -> App.
  await page.fill('#twin-p-tau', '0.2');
  await page.press('#twin-p-tau', 'Enter');
  await page.waitForFunction(() => /(^|&)tau=0\.2(&|$)/.test(window.attnlab.appHash()));
  // A refused value: the schema's message, on the field.
  await page.fill('#twin-p-tau', '9');
  await page.press('#twin-p-tau', 'Enter');
  const alert = await page.locator('#twin-p-tau-error').textContent();
  assert.match(alert, /parameter 'tau': '9' is out of range; allowed: number in \[0\.01, 0\.5\]/);
  assert.strictEqual(await page.getAttribute('#twin-p-tau', 'aria-invalid'), 'true');
  assert.match(await page.evaluate(() => window.attnlab.appHash()), /tau=0\.2/);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

// The twin's data table of plot `index`: its header and rows of cell texts.
function figureTable(page, index) {
  return page.evaluate((i) => {
    const t = document.getElementById(`twin-fig-${i}`).closest('figure').querySelector('table');
    return [...t.querySelectorAll('tr')].map((tr) => [...tr.children].map((c) => c.textContent));
  }, index);
}

// A cell as the twin writes a number: at most `digits` significant digits (an integer whole) and
// within half a unit of the last digit of the value; '' for no value; text as it is.
function cellMatches(text, value, digits) {
  if (value === null || value === undefined || value === '') return text === '';
  const v = Number(value);
  if (!Number.isFinite(v)) return text === String(value);  // text, or a value with no digits to round
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return text === String(v);
  const got = Number(text);
  if (!Number.isFinite(got)) return false;
  const mantissa = text.replace(/^-/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '');
  return mantissa.length <= digits && Math.abs(got - v) <= 0.5000001 * 10 ** (1 - digits) * Math.abs(v);
}

// The table against the plot: the header names x and each series; each row's x is a point of the
// plot (to 6 digits) and each cell is that series' y at x to 4 significant digits, as the plot's
// read-out shows it ('' where the series has no point there; the CSV has every digit); all rows when
// there are at most 50, else evenly spread ones and the last.
function checkFigureTable(table, plot, where) {
  assert.deepStrictEqual(table[0], [plot.x_label || 'x', ...plot.series.map((se) => se.name)], `${where}: header`);
  const at = new Map();
  plot.series.forEach((se, k) => se.x.forEach((x, i) => {
    if (!at.has(x)) at.set(x, plot.series.map(() => null));
    at.get(x)[k] = se.y[i];
  }));
  const rows = table.slice(1);
  assert.ok(rows.length >= Math.min(at.size, 2) && rows.length <= 51, `${where}: ${rows.length} rows of ${at.size} points`);
  if (at.size <= 50) assert.strictEqual(rows.length, at.size, `${where}: every point has a row`);
  const xs = [...at.keys()];
  for (const [x, ...cells] of rows) {
    const point = xs.find((p) => cellMatches(x, p, 6));
    assert.ok(point !== undefined, `${where}: x = ${x} is not a point of the plot`);
    at.get(point).forEach((y, k) => assert.ok(cellMatches(cells[k], y, 4), `${where}: x = ${x}, ${table[0][k + 1]}: '${cells[k]}' for ${y}`));
  }
  assert.ok(cellMatches(rows[rows.length - 1][0], xs[xs.length - 1], 6), `${where}: the last point's row`);
}

// Tab (or Shift+Tab) until `predicate` holds for the focused element; returns the number of presses.
async function tabUntil(page, predicate, arg, { back = false, limit = 120 } = {}) {
  for (let i = 0; i < limit; i++) {
    if (await page.evaluate(predicate, arg)) return i;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error('focus never reached the control');
}

test('a story step completed through the twin by keyboard only: question, prediction, Run, answer, table', async () => {
  const { page: probe } = await openPage();
  const stories = JSON.parse(await probe.evaluate(() => window.attnlab.listStories()));
  await probe.close();
  let at = null;
  for (const s of stories) {
    const k = s.steps.findIndex((st) => st.prediction && st.prediction.choices.length && !st.run);
    if (k >= 0) { at = { story: s.id, step: k + 1 }; break; }
  }
  assert.ok(at, 'a story step with a prediction');
  const { page, errors } = await openPage(`story=${at.story}&step=${at.step}`);
  await page.waitForFunction(() => window.attnlab.twinRender !== undefined);
  // The keyboard starts on the canvas; Esc leaves it for the twin.
  assert.strictEqual(await page.evaluate(() => document.activeElement.id), 'canvas');
  await page.keyboard.press('Escape');
  assert.ok(await page.evaluate(() => document.getElementById('twin').contains(document.activeElement)), 'Esc moved the focus to the twin');
  // The focus is visible: the twin shows as a panel while it holds the focus.
  const box = await page.locator('#twin').boundingBox();
  assert.ok(box.width > 300 && box.height > 300, 'the twin is visible while focused');
  // Read the question.
  const shown = JSON.parse(await page.evaluate(() => window.attnlab.appPageJson())).story;
  assert.strictEqual(await page.locator('#twin-question').textContent(), shown.question);
  // Pick a prediction: Tab to the radio group, Space picks the first choice.
  await tabUntil(page, () => document.activeElement.name === 'twin-prediction');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => JSON.parse(window.attnlab.appPageJson()).story.prediction.predicted === 0);
  // Run: back to the toolbar (Shift+Tab), Enter presses it.
  await tabUntil(page, () => document.activeElement.id === 'twin-run', null, { back: true });
  await page.keyboard.press('Enter');
  await twinShowsDone(page);
  // Read the measured answer and the result's table, once the twin shows them by itself.
  const done = JSON.parse(await page.evaluate(() => window.attnlab.appPageJson())).story;
  assert.notStrictEqual(done.answer, '');
  await page.waitForFunction((a) => document.getElementById('twin-answer')?.textContent === a, done.answer, { timeout: 10000 });
  // The focus moved from the toolbar's Run to the answer, read next (walk 11: it stayed at the top).
  await page.waitForFunction(() => document.activeElement.id === 'twin-answer-heading', null, { timeout: 5000 });
  assert.match(await page.locator('#twin').textContent(), new RegExp('The run measured: ' + done.prediction.measured.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  // The twin's results table (after a story's figures) holds the CSV's numbers to 4 digits (header
  // and every shown row).
  const csv = (await page.evaluate(() => window.attnlab.appCsv())).split('\n').filter((l) => l && !l.startsWith('#'));
  const table = await page.evaluate(() => {
    const t = [...document.querySelectorAll('[data-twin-section="results"] table')]
      .find((x) => /^(Results table|The run's whole table)/.test(x.querySelector('caption').textContent));
    return [...t.querySelectorAll('tr')].map((tr) => [...tr.children].map((c) => c.textContent));
  });
  assert.deepStrictEqual(table[0], csv[0].split(','));
  // Every column of the whole table is said in words under it (walk 13; lab/column_key.hpp).
  const keyed = await page.evaluate(() => [...document.querySelectorAll('[data-twin-section="results"] .column-key dt')]
    .map((dt) => dt.textContent));
  assert.deepStrictEqual(keyed, table[0], 'the column key names every column of the whole table');
  const body = csv.slice(1).map((l) => l.split(','));
  for (const row of table.slice(1))
    assert.ok(body.some((r) => r.every((v, k) => cellMatches(row[k], v === '' ? null : v, 4))), `row ${row} in the CSV`);
  assert.ok(table.length - 1 <= 51 && table.length - 1 >= Math.min(body.length, 2));
  // Every figure's table: its numbers are the plot's own (appTwinFiguresJson), cell by cell.
  const figs = JSON.parse(await page.evaluate(() => window.attnlab.appTwinFiguresJson()));
  assert.strictEqual(await page.locator('[data-twin-section="results"] figure').count(), figs.plots.length + figs.heatmaps.length);
  assert.ok(figs.plots.length > 0, 'the step draws a plot');
  for (const [i, plot] of figs.plots.entries()) checkFigureTable(await figureTable(page, i), plot, `figure ${i + 1}`);
  // The twin as a screen reader reads it (the accessibility tree of the step and the results).
  const tree = await page.locator('#twin').ariaSnapshot();
  console.log(`--- the twin of ${at.story} step ${at.step}, after Run (aria snapshot) ---\n${tree}`);
  assert.match(tree, /radio ".*" \[checked\]/);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

// Walk 17: the twin read a level line (a chance line, a bound) as "highest 0.5 at |S| 1, lowest 0.5
// at |S| 1". Every level series of every figure is said as one value, and a flat curve as flat.
test('the twin says a level line as its value and a flat curve as flat', async () => {
  const { page, errors } = await openPage('story=multihead&step=3');
  await page.waitForFunction(() => window.attnlab.twinRender !== undefined);
  await page.evaluate(() => { window.attnlab.appPredict(0); window.attnlab.appRun(); });
  await page.evaluate(() => window.attnlab.appSetTextView(true));
  await twinShowsDone(page);
  const figs = JSON.parse(await page.evaluate(() => window.attnlab.appTwinFiguresJson()));
  let levels = 0;
  for (const [i, plot] of figs.plots.entries()) {
    const items = await page.evaluate((k) => [...document.querySelectorAll('[data-twin-section="results"] figure')[k]
      .querySelectorAll('li')].map((li) => li.textContent), i);
    for (const se of plot.series) {
      const said = items.find((t) => t.startsWith(se.name + ':'));
      assert.ok(said, `figure ${i + 1} says ${se.name}`);
      const ys = se.y.filter((y) => y !== null);
      if (se.level) {
        levels++;
        assert.match(said, / a level line at /, said);
      } else if (ys.length > 1 && ys.every((y) => y === ys[0])) {
        assert.match(said, /, flat at /, said);
      }
      assert.doesNotMatch(said, /highest (\S+) at .* lowest \1 at/, said);
    }
  }
  assert.ok(levels > 0, 'multihead step 3 draws its chance line as a level');
  assert.deepStrictEqual(errors, []);
  await page.close();
});
