// The SCORM packages (web/scorm/, docs/scorm.md) against a real SCORM run-time: scorm-again (npm,
// scripts/setup.sh) as the LMS in a host page that frames the package's launch page, in headless
// Chromium. For SCORM 1.2 and 2004: a story completed with some predictions right and some wrong,
// left midway and resumed at the step with its prediction; every CMI value read back from the
// run-time, and no call refused (its error codes). Outside an LMS the launch page is the lab.
// Env: see browser.mjs; the packages come from ATTNLAB_SITE_DIR/scorm/ (scripts/build-site.sh) or are
// made here from ATTNLAB_WEB_DIR with web/scorm/package.mjs. ATTNLAB_SCORM_STORY picks the story.
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { launchChromium, webDir } from './browser.mjs';
import { serveDirectory } from './static_server.mjs';
import { hostPage, inspectManifest, pickPlan, walkStory } from './scorm_host.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const STORY = process.env.ATTNLAB_SCORM_STORY || 'separation';
const shots = process.env.ATTNLAB_SHOTS_DIR || path.resolve(here, '..', '..', 'build', 'story-shots');
const env = { server: null, browser: null, base: '', dir: '', answers: null, steps: 0 };

test.before(async () => {
  assert.ok(webDir || process.env.ATTNLAB_SITE_DIR, 'ATTNLAB_WEB_DIR or ATTNLAB_SITE_DIR must name the built web app');
  fs.mkdirSync(shots, { recursive: true });
  env.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-scorm-test-'));
  let zips = process.env.ATTNLAB_SITE_DIR ? path.join(process.env.ATTNLAB_SITE_DIR, 'scorm') : '';
  if (!zips) {  // the packages, made from the built page as scripts/build-site.sh makes them
    const site = path.join(env.dir, 'site');
    fs.cpSync(webDir, site, { recursive: true });
    execFileSync('node', [path.join(here, '..', 'scorm', 'package.mjs'), site, path.join(webDir, '..', 'attnlab_node.cjs')]);
    zips = path.join(site, 'scorm');
  }
  for (const v of ['scorm12', 'scorm2004']) {
    execFileSync('python3', ['-m', 'zipfile', '-e', path.join(zips, `attnlab-story-${STORY}-${v}.zip`), path.join(env.dir, v)]);
  }
  // The run-time's browser build (the package's exports name only its modules): from NODE_PATH.
  const runtime = (process.env.NODE_PATH || '').split(path.delimiter).map((d) => path.join(d, 'scorm-again', 'dist', 'scorm-again.js'))
    .find((f) => fs.existsSync(f));
  assert.ok(runtime, 'scorm-again must be in NODE_PATH (scripts/setup.sh installs it)');
  fs.copyFileSync(runtime, path.join(env.dir, 'scorm-again.js'));
  fs.writeFileSync(path.join(env.dir, 'host.html'), hostPage());
  env.server = await serveDirectory(env.dir);
  env.base = `http://127.0.0.1:${env.server.address().port}/`;
  env.browser = await launchChromium();
});
test.after(async () => {
  await env.browser?.close();
  env.server?.close();
  if (env.dir) fs.rmSync(env.dir, { recursive: true, force: true });
});

test('each package holds one SCO: manifest, launch page, the lab, the adapter', () => {
  for (const v of ['scorm12', 'scorm2004']) {
    const m = inspectManifest(path.join(env.dir, v), v);
    assert.deepStrictEqual(m.problems, [], `${v}: ${m.problems.join('; ')}`);
    assert.match(m.title, /guided story/);
    assert.match(m.description, /Steps: 1\. /);
  }
});

test('outside an LMS the launch page is the lab at the story, and records nothing', async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(env.base + 'scorm2004/launch.html');
  await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30000 });
  assert.deepStrictEqual(await page.evaluate(() => ({ ...window.attnlabScorm })), { version: '2004', found: false, errors: [], interactions: 0, polls: 0 });
  // Walked once with choice 0 everywhere: the run's answer of each step, for the plans below.
  const walked = await walkStory(page, page, () => 0);
  env.answers = walked.answers;
  env.steps = walked.answers.length;
  assert.strictEqual(walked.story, STORY);
  assert.ok(env.answers.every((a) => a >= 0), `every step's run picks a choice: ${env.answers}`);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

for (const version of ['1.2', '2004']) {
  test(`SCORM ${version}: predictions, location, resume, completion, score and time in scorm-again`, async () => {
    assert.ok(env.answers, 'the walk outside an LMS ran first');
    const is2004 = version === '2004';
    const dir = is2004 ? 'scorm2004' : 'scorm12';
    // Right on steps 1, 3, 5 (3 of 5): 1.2 failed at the LMS's mastery score of 70, where the
    // package's 60 would pass; 2004 passed at the package's 0.6 (the LMS gives no passing score).
    const plan = pickPlan(env.answers, 2);
    const mastery = is2004 ? 0.6 : 0.7;
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('response', (r) => { if (r.status() >= 400) errors.push(`HTTP ${r.status()} for ${r.url()}`); });
    await page.goto(env.base + 'host.html');
    // First session: two steps decided, the third predicted but not run, then the student leaves.
    const frame1 = await page.evaluate(([v, d]) => window.hostStart(v, d, null), [version, dir]).then(() => frameOf(page));
    const leaveAt = Math.min(2, env.steps - 1);
    const first = await walkStory(page, frame1, (k) => plan[k], { stopBefore: leaveAt });
    assert.strictEqual(first.leftPredicted, plan[leaveAt]);
    const saved = await page.evaluate(() => window.hostLeave());
    const cmi1 = saved.cmi;
    const loc = is2004 ? cmi1.location : cmi1.core.lesson_location;
    assert.strictEqual(loc, String(leaveAt + 1), 'the location is the step left');
    assert.strictEqual(is2004 ? cmi1.exit : cmi1.core.exit, 'suspend');
    assert.strictEqual(is2004 ? cmi1.completion_status : cmi1.core.lesson_status, 'incomplete');
    const data = JSON.parse(cmi1.suspend_data);
    assert.deepStrictEqual({ s: data.s, p: data.p, n: data.n, c: data.c }, { s: leaveAt, p: { [leaveAt]: plan[leaveAt] }, n: leaveAt, c: 0 });

    // Second session: resumes at the step with its prediction, then completes the story.
    const frame2 = await page.evaluate(([v, d, c]) => window.hostStart(v, d, c), [version, dir, cmi1]).then(() => frameOf(page));
    const resumed = await frame2.evaluate(() => JSON.parse(window.attnlab.appPageJson()).story);
    assert.strictEqual(resumed.step, leaveAt + 1, 'resumed at the step left');
    await frame2.waitForFunction((want) => JSON.parse(window.attnlab.appPageJson()).story.prediction.predicted === want,
      plan[leaveAt], { timeout: 10000 });
    await walkStory(page, frame2, (k) => plan[k], { from: leaveAt });
    const end = await page.evaluate(() => window.hostLeave());
    const cmi = end.cmi;
    const adapter = end.adapter;

    // Commit after each step (opened, predicted, decided) and one Finish / Terminate per session.
    const [commit, finish] = is2004 ? ['Commit', 'Terminate'] : ['LMSCommit', 'LMSFinish'];
    assert.ok(saved.calls[commit] >= 2 * leaveAt + 1, `commits in the first session: ${saved.calls[commit]}`);
    assert.ok(end.calls[commit] >= 2 * (env.steps - leaveAt), `commits in the second session: ${end.calls[commit]}`);
    assert.deepStrictEqual([saved.calls[finish], end.calls[finish]], [1, 1]);
    // No call was refused by the run-time, and the adapter saw no error.
    assert.deepStrictEqual([...saved.refused, ...end.refused], [], 'calls the run-time refused');
    assert.deepStrictEqual(adapter.errors, []);
    assert.deepStrictEqual(errors, []);

    // Every interaction: id, type, responses, result, latency, time.
    const right = plan.filter((p, k) => p === env.answers[k]).length;
    assert.ok(right > 0 && right < env.steps, `the plan mixes right and wrong: ${plan} vs ${env.answers}`);
    const list = Object.values(cmi.interactions);
    assert.strictEqual(list.length, env.steps);
    list.forEach((it, k) => {
      const where = `interaction ${k}`;
      assert.strictEqual(it.id, `${STORY}-step-${k + 1}`, where);
      assert.strictEqual(it.type, 'choice', where);
      const letter = (i) => String.fromCharCode(97 + i);
      assert.strictEqual(is2004 ? it.learner_response : it.student_response, letter(plan[k]), where);
      assert.strictEqual(it.correct_responses['0'].pattern, letter(env.answers[k]), where);
      const ok = plan[k] === env.answers[k];
      assert.strictEqual(it.result, ok ? 'correct' : is2004 ? 'incorrect' : 'wrong', where);
      assert.match(it.latency, is2004 ? /^PT\d+H\d+M\d+(\.\d\d)?S$/ : /^\d{2,4}:\d\d:\d\d(\.\d{1,2})?$/, where);
      assert.ok(/[1-9]/.test(it.latency), `${where}: a latency above zero, not ${it.latency}`);
      assert.match(is2004 ? it.timestamp : it.time, is2004 ? /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/ : /^\d\d:\d\d:\d\d$/, where);
      if (is2004) assert.match(it.description, /\(a: /, where);
    });
    // Score, completion, success, location, exit, session time, what resuming would read.
    const score = is2004 ? cmi.score : cmi.core.score;
    assert.strictEqual(Number(score.raw), Math.round((100 * right) / env.steps));
    assert.strictEqual(Number(score.min), 0);
    assert.strictEqual(Number(score.max), 100);
    const passed = right / env.steps >= mastery;
    if (is2004) {
      assert.strictEqual(Number(cmi.score.scaled), Number((right / env.steps).toFixed(4)));
      assert.strictEqual(cmi.completion_status, 'completed');
      assert.strictEqual(cmi.success_status, passed ? 'passed' : 'failed');
      assert.strictEqual(Number(cmi.progress_measure), 1);
      assert.strictEqual(cmi.exit, 'normal');
      assert.strictEqual(cmi.location, String(env.steps));
      assert.match(cmi.session_time, /^PT\d+H\d+M\d+(\.\d\d)?S$/);
    } else {
      assert.strictEqual(cmi.core.lesson_status, passed ? 'passed' : 'failed');
      assert.strictEqual(cmi.core.exit, '');
      assert.strictEqual(cmi.core.lesson_location, String(env.steps));
      assert.match(cmi.core.session_time, /^\d{2,4}:\d\d:\d\d(\.\d\d?)?$/);
    }
    const last = JSON.parse(cmi.suspend_data);
    assert.strictEqual(last.c, 1);
    assert.strictEqual(Object.keys(last.d).length, env.steps);
    // What the run-time holds, as a picture (docs/scorm.md shows the 2004 one).
    await page.evaluate((c) => window.hostShowCmi(c), cmi);
    await page.screenshot({ path: path.join(shots, `scorm-${dir}.png`), fullPage: true });
    await page.close();
  });
}

async function frameOf(page) {
  const handle = await page.waitForSelector('#sco');
  const frame = await handle.contentFrame();
  await frame.waitForFunction(() => document.body && document.body.dataset.ready === '1', null, { timeout: 30000 });
  return frame;
}
