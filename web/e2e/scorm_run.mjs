// The SCORM run-time checks shared by web/e2e/scorm.test.mjs (Chromium, playwright-core) and
// web/e2e-engines/scorm.test.mjs (Firefox and WebKitGTK, engines.mjs): the test folder (the
// packages unpacked beside scorm-again and the host page of scorm_host.mjs), a walk through a story
// in the lab's frame, and one version's two sessions (left midway, resumed, completed) with every
// CMI value read back. A page here is anything with eval(fn, arg) in the top window and
// frameEval(urlPrefix, fn, arg) in the iframe whose address starts with urlPrefix (engines.mjs's
// pages; chromiumPage() makes one of a playwright page).
import assert from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { hostPage } from './scorm_host.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const STORY = process.env.ATTNLAB_SCORM_STORY || 'separation';
export const VERSIONS = ['1.2', '2004'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A temporary folder with scorm12/ and scorm2004/ (the story's packages, unpacked), scorm-again.js
// and host.html. The packages come from SITE_DIR/scorm/ (scripts/build-site.sh) or are made here
// from the built page (webDir) with web/scorm/package.mjs. Returns the folder.
export function prepareScormDir(webDir, siteDir) {
  assert.ok(webDir || siteDir, 'ATTNLAB_WEB_DIR or ATTNLAB_SITE_DIR must name the built web app');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-scorm-test-'));
  let zips = siteDir ? path.join(siteDir, 'scorm') : '';
  if (!zips) {  // the packages, made from the built page as scripts/build-site.sh makes them
    const site = path.join(dir, 'site');
    fs.cpSync(webDir, site, { recursive: true });
    execFileSync('node', [path.join(here, '..', 'scorm', 'package.mjs'), site, path.join(webDir, '..', 'attnlab_node.cjs')]);
    zips = path.join(site, 'scorm');
  }
  for (const v of ['scorm12', 'scorm2004']) {
    execFileSync('python3', ['-m', 'zipfile', '-e', path.join(zips, `attnlab-story-${STORY}-${v}.zip`), path.join(dir, v)]);
  }
  // The run-time's browser build (the package's exports name only its modules): from NODE_PATH.
  const runtime = (process.env.NODE_PATH || '').split(path.delimiter).map((d) => path.join(d, 'scorm-again', 'dist', 'scorm-again.js'))
    .find((f) => fs.existsSync(f));
  assert.ok(runtime, 'scorm-again must be in NODE_PATH (scripts/setup.sh installs it)');
  fs.copyFileSync(runtime, path.join(dir, 'scorm-again.js'));
  fs.writeFileSync(path.join(dir, 'host.html'), hostPage());
  return dir;
}

// A playwright page as the pages above.
export function chromiumPage(page) {
  return {
    eval: (fn, arg) => page.evaluate(fn, arg),
    frameEval(prefix, fn, arg) {
      const frame = page.frames().find((f) => f.url().startsWith(prefix));
      if (!frame) throw new Error(`no frame at ${prefix}`);
      return frame.evaluate(fn, arg);
    },
  };
}

// Polls `evaluate(fn, arg)` until it gives something truthy; returns it.
export async function waitIn(evaluate, fn, arg, timeoutMs = 30000, what = '', pollMs = 100) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    let last;
    try { last = await evaluate(fn, arg); } catch (e) { last = null; }
    if (last) return last;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what || fn.toString()}`);
    await sleep(pollMs);
  }
}

// Right on every `every`-th step from the first, wrong (another choice) on the others.
export function pickPlan(answers, every) {
  return answers.map((a, k) => (k % every === 0 ? a : (a + 1) % 2));
}

// Walks the story open in `lab` (an evaluate function) from step `from` (0-based): predicts
// `choose(k)`, runs, waits for the answer, goes Next. With `stopBefore`, it stops on that step after
// predicting (no run). Each change is waited for until the adapter (if it found an LMS) has read the
// page twice more, so what the page shows is recorded. Returns {story, steps, answers: the run's
// choice per step walked, leftPredicted}.
export async function walkStory(lab, choose, { from = 0, stopBefore = -1 } = {}) {
  const story = () => lab(() => JSON.parse(window.attnlab.appPageJson()).story);
  const adapterSaw = async () => {
    const polls = await lab(() => window.attnlabScorm.polls || 0);
    await waitIn(lab, (n) => !window.attnlabScorm.found || window.attnlabScorm.polls >= n + 2, polls, 30000, 'the adapter');
  };
  const answers = [];
  let st = await story();
  if (st.step !== from + 1) throw new Error(`walkStory: the frame is at step ${st.step}, not ${from + 1}`);
  for (let k = from; ; k += 1) {
    st = await story();
    if (st.prediction.predicted !== choose(k)) {
      const error = await lab((v) => window.attnlab.appPredict(v), choose(k));
      if (error) throw new Error(`walkStory: step ${k + 1}: ${error}`);
    }
    await adapterSaw();  // the prediction is recorded as made before the run
    if (k === stopBefore) return { story: st.story, steps: st.steps, answers, leftPredicted: (await story()).prediction.predicted };
    await lab(() => window.attnlab.appRunControl('run'));
    await waitIn(lab, () => window.attnlab.appState() === 'done' && JSON.parse(window.attnlab.appPageJson()).story.answer !== '',
      null, 300000, `the run of step ${k + 1}`, 1000);  // a slow poll: WebKitGTK's driver calls cost the run's thread
    st = await story();
    answers.push(st.prediction.choices.findIndex((c) => st.prediction.measured.endsWith('. Answer: ' + c)));
    await adapterSaw();  // the decided prediction is recorded
    if (st.step === st.steps) return { story: st.story, steps: st.steps, answers, leftPredicted: null };
    const error = await lab(() => window.attnlab.appStoryStep(1));
    if (error) throw new Error(`walkStory: Next after step ${k + 1}: ${error}`);
    await waitIn(lab, (n) => JSON.parse(window.attnlab.appPageJson()).story.step === n, k + 2);
    await adapterSaw();  // the step is seen open before its prediction (its latency counts from there)
  }
}

// One version in the host page (`page`, at BASE/host.html): a first session walks two steps,
// predicts the third and leaves; a second, loaded from the LMS's data, resumes at the third step with
// its prediction and completes the story. `plan[k]` is the choice predicted at step k; `answers`,
// if given, the runs' choices this walk must meet. 1.2: the LMS's mastery score is 70 (hostPage);
// 2004: the LMS gives none, and the package's 0.6 decides. Checks every CMI value, that no call was
// refused, the calls counted, errors in the lab's frame (window.__engineErrors, engines.mjs's hook);
// returns {cmi, answers}.
export async function scormSessions(page, base, version, plan, answers = null) {
  const is2004 = version === '2004';
  const dir = is2004 ? 'scorm2004' : 'scorm12';
  const mastery = is2004 ? 0.6 : 0.7;
  const prefix = `${base}${dir}/launch.html`;
  const lab = (fn, arg) => page.frameEval(prefix, fn, arg);
  const start = async (resume) => {
    await page.eval(([v, d, r]) => window.hostStart(v, d, r), [version, dir, resume]);
    await waitIn(lab, () => document.body && document.body.dataset.ready === '1', null, 60000, 'the launch page to be ready');
  };
  const leave = async () => {
    assert.deepStrictEqual(await lab(() => window.__engineErrors || []), [], 'errors in the lab\'s frame');
    return page.eval(() => window.hostLeave());
  };
  // First session: two steps decided, the third predicted but not run, then the student leaves.
  await start(false);
  const first = await walkStory(lab, (k) => plan[k], { stopBefore: 2 });
  const steps = first.steps;
  assert.ok(steps >= 4, `the story has ${steps} steps; the plan needs at least 4`);
  assert.strictEqual(first.leftPredicted, plan[2]);
  const saved = await leave();
  const cmi1 = saved.cmi;
  assert.strictEqual(is2004 ? cmi1.location : cmi1.core.lesson_location, '3', 'the location is the step left');
  assert.strictEqual(is2004 ? cmi1.exit : cmi1.core.exit, 'suspend');
  assert.strictEqual(is2004 ? cmi1.completion_status : cmi1.core.lesson_status, 'incomplete');
  const data = JSON.parse(cmi1.suspend_data);
  assert.deepStrictEqual({ s: data.s, p: data.p, n: data.n, c: data.c }, { s: 2, p: { 2: plan[2] }, n: 2, c: 0 });

  // Second session: resumes at the step with its prediction, then completes the story.
  await start(true);
  assert.strictEqual((await lab(() => JSON.parse(window.attnlab.appPageJson()).story)).step, 3, 'resumed at the step left');
  await waitIn(lab, (want) => JSON.parse(window.attnlab.appPageJson()).story.prediction.predicted === want, plan[2], 10000,
    'the prediction restored');
  const second = await walkStory(lab, (k) => plan[k], { from: 2 });
  const end = await leave();
  const { cmi, adapter } = end;
  const walked = [...first.answers, ...second.answers];
  if (answers) assert.deepStrictEqual(walked, answers, 'the runs give the answers of the walk outside an LMS');

  // Commit after each step (opened, predicted, decided) and one Finish / Terminate per session.
  const [commit, finish] = is2004 ? ['Commit', 'Terminate'] : ['LMSCommit', 'LMSFinish'];
  assert.ok(saved.calls[commit] >= 2 * 2 + 1, `commits in the first session: ${saved.calls[commit]}`);
  assert.ok(end.calls[commit] >= 2 * (steps - 2), `commits in the second session: ${end.calls[commit]}`);
  assert.deepStrictEqual([saved.calls[finish], end.calls[finish]], [1, 1]);
  // No call was refused by the run-time, and the adapter saw no error.
  assert.deepStrictEqual([...saved.refused, ...end.refused], [], 'calls the run-time refused');
  assert.deepStrictEqual(adapter.errors, []);

  // Every interaction: id, type, responses, result, latency, time.
  const right = plan.filter((p, k) => p === walked[k]).length;
  assert.ok(right > 0 && right < steps, `the plan mixes right and wrong: ${plan} vs ${walked}`);
  const list = Object.values(cmi.interactions);
  assert.strictEqual(list.length, steps);
  const letter = (i) => String.fromCharCode(97 + i);
  list.forEach((it, k) => {
    const where = `interaction ${k}`;
    assert.strictEqual(it.id, `${STORY}-step-${k + 1}`, where);
    assert.strictEqual(it.type, 'choice', where);
    assert.strictEqual(is2004 ? it.learner_response : it.student_response, letter(plan[k]), where);
    assert.strictEqual(it.correct_responses['0'].pattern, letter(walked[k]), where);
    assert.strictEqual(it.result, plan[k] === walked[k] ? 'correct' : is2004 ? 'incorrect' : 'wrong', where);
    assert.match(it.latency, is2004 ? /^PT\d+H\d+M\d+(\.\d\d)?S$/ : /^\d{2,4}:\d\d:\d\d(\.\d{1,2})?$/, where);
    assert.ok(/[1-9]/.test(it.latency), `${where}: a latency above zero, not ${it.latency}`);
    assert.match(is2004 ? it.timestamp : it.time, is2004 ? /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/ : /^\d\d:\d\d:\d\d$/, where);
    if (is2004) assert.match(it.description, /\(a: /, where);
  });
  // Score, completion, success, location, exit, session time, what resuming would read.
  const score = is2004 ? cmi.score : cmi.core.score;
  assert.strictEqual(Number(score.raw), Math.round((100 * right) / steps));
  assert.strictEqual(Number(score.min), 0);
  assert.strictEqual(Number(score.max), 100);
  const passed = right / steps >= mastery;
  if (is2004) {
    assert.strictEqual(Number(cmi.score.scaled), Number((right / steps).toFixed(4)));
    assert.strictEqual(cmi.completion_status, 'completed');
    assert.strictEqual(cmi.success_status, passed ? 'passed' : 'failed');
    assert.strictEqual(Number(cmi.progress_measure), 1);
    assert.strictEqual(cmi.exit, 'normal');
    assert.strictEqual(cmi.location, String(steps));
    assert.match(cmi.session_time, /^PT\d+H\d+M\d+(\.\d\d)?S$/);
  } else {
    assert.strictEqual(cmi.core.lesson_status, passed ? 'passed' : 'failed');
    assert.strictEqual(cmi.core.exit, '');
    assert.strictEqual(cmi.core.lesson_location, String(steps));
    assert.match(cmi.core.session_time, /^\d{2,4}:\d\d:\d\d(\.\d\d?)?$/);
  }
  const last = JSON.parse(cmi.suspend_data);
  assert.strictEqual(last.c, 1);
  assert.strictEqual(Object.keys(last.d).length, steps);
  return { cmi, answers: walked };
}
