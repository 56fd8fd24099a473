// The lab's side of a SCORM package (README "In your LMS", docs/scorm.md): finds the learning
// management system's run-time API (window.API for SCORM 1.2, window.API_1484_11 for SCORM 2004)
// in a parent or opener frame and records the story through it: each decided prediction as an
// interaction, the step as the location, what resuming needs in suspend_data, completion at the
// last step's answer, the score (predictions right over predictions made) and the session time.
// It reads the story through the page's own hooks (window.attnlab.appPageJson, as web/twin.js
// does) and drives it only to restore a prediction on resume (appPredict). Without an API it does
// nothing, and the page is the lab as everywhere else. Nothing is sent anywhere but to that API.
//
// The launch page loads it in its <head>, before the lab: <script src="scorm_adapter.js"
// data-story="ID" data-version="1.2|2004" data-mastery="0.6"></script>.
(function () {
  'use strict';
  const POLL_MS = 250;
  const tag = document.currentScript;
  const storyId = tag.dataset.story;
  const is2004 = tag.dataset.version === '2004';
  if (!storyId || !/^(1\.2|2004)$/.test(tag.dataset.version || '')) {
    throw new Error(`scorm_adapter: data-story (a story id) and data-version ('1.2' or '2004') are required; got story '${storyId}', version '${tag.dataset.version}'`);
  }
  const apiName = is2004 ? 'API_1484_11' : 'API';

  // The usual search: this window's parents, then the opener's (at most 500 hops, as ADL's wrapper).
  function findIn(win) {
    for (let hops = 0; win && hops < 500; hops += 1) {
      try { if (win[apiName]) return win[apiName]; } catch (e) { return null; }  // another origin
      if (win.parent === win) return null;
      win = win.parent;
    }
    return null;
  }
  const api = findIn(window) || (window.opener ? findIn(window.opener) : null);
  const record = { version: tag.dataset.version, found: !!api, errors: [], interactions: 0, polls: 0 };
  window.attnlabScorm = record;  // for tests and curious teachers: what the adapter did
  // The lab reads its link when the module starts, after this script: the launch page opens the story.
  const openAt = (step) => history.replaceState(null, '', `#story=${encodeURIComponent(storyId)}&step=${step}&embed=1`);
  if (!api) {
    if (!location.hash) openAt(1);
    return;
  }

  // ---- the API, by version -------------------------------------------------------------------
  const F = is2004
    ? { init: 'Initialize', get: 'GetValue', set: 'SetValue', commit: 'Commit', finish: 'Terminate', error: 'GetLastError' }
    : { init: 'LMSInitialize', get: 'LMSGetValue', set: 'LMSSetValue', commit: 'LMSCommit', finish: 'LMSFinish', error: 'LMSGetLastError' };
  const E = is2004
    ? { location: 'cmi.location', suspend: 'cmi.suspend_data', entry: 'cmi.entry', exit: 'cmi.exit', session: 'cmi.session_time',
      raw: 'cmi.score.raw', min: 'cmi.score.min', max: 'cmi.score.max', count: 'cmi.interactions._count', mastery: 'cmi.scaled_passing_score' }
    : { location: 'cmi.core.lesson_location', suspend: 'cmi.suspend_data', entry: 'cmi.core.entry', exit: 'cmi.core.exit',
      session: 'cmi.core.session_time', raw: 'cmi.core.score.raw', min: 'cmi.core.score.min', max: 'cmi.core.score.max',
      count: 'cmi.interactions._count', mastery: 'cmi.student_data.mastery_score' };
  function call(fn, ...args) {
    const out = String(api[fn](...args));
    const code = String(api[F.error]());
    // 2004's 403 on GetValue is "not initialized": how a first session reads as one, not an error.
    if (code !== '0' && code !== '' && !(code === '403' && fn === 'GetValue')) record.errors.push(`${fn}(${args.join(', ')}): error ${code}`);
    return out;
  }
  const get = (key) => call(F.get, key);
  const set = (key, value) => call(F.set, key, String(value));
  const commit = () => call(F.commit, '');

  // ---- times as each version writes them --------------------------------------------------------
  const pad = (n, w = 2) => String(n).padStart(w, '0');
  function span(ms) {  // 1.2: HHHH:MM:SS.SS; 2004: PT#H#M#S
    const cs = Math.max(0, Math.round(ms / 10)), s = Math.floor(cs / 100) % 60, m = Math.floor(cs / 6000) % 60, h = Math.floor(cs / 360000);
    if (is2004) return `PT${h}H${m}M${s}.${pad(cs % 100)}S`;
    return `${pad(h, 4)}:${pad(m)}:${pad(s)}.${pad(cs % 100)}`;
  }
  function clock(date) {  // 1.2: HH:MM:SS; 2004: YYYY-MM-DDThh:mm:ss (local time)
    const t = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
    return is2004 ? `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${t}` : t;
  }

  // ---- start: where to resume ---------------------------------------------------------------
  const started = Date.now();
  if (call(F.init, '') !== 'true') { record.errors.push(`${F.init} refused`); return; }
  // suspend_data: {"s": open step (0-based), "p": {step: prediction not yet decided}, "d": {step:
  // [response, result]} decided, "n": interactions written, "c": 1 once completed}
  let saved = {};
  if (get(E.entry) === 'resume') { try { saved = JSON.parse(get(E.suspend) || '{}'); } catch (e) { saved = {}; } }
  const state = { s: Number.isInteger(saved.s) ? saved.s : 0, p: saved.p || {}, d: saved.d || {}, n: saved.n || 0, c: saved.c || 0 };
  state.n = Math.max(state.n, Number(get(E.count)) || 0);  // interactions already in the LMS
  const mastery = (() => {
    const lms = get(E.mastery);
    if (lms !== '' && isFinite(Number(lms))) return is2004 ? Number(lms) : Number(lms) / 100;
    return Number(tag.dataset.mastery || 0.6);
  })();
  if (!is2004 && get('cmi.core.lesson_status') === 'not attempted') set('cmi.core.lesson_status', 'incomplete');
  if (is2004 && !state.c) set('cmi.completion_status', 'incomplete');
  openAt(state.s + 1);  // where the student left

  // ---- what a step records --------------------------------------------------------------------
  let openedAt = Date.now(), predictedAt = 0, steps = 0;
  const letter = (i) => String.fromCharCode(97 + i);  // choice 0 -> "a" (1.2 allows a-z, 0-9)
  const results = is2004 ? { right: 'correct', wrong: 'incorrect' } : { right: 'correct', wrong: 'wrong' };
  function score() {
    const made = Object.values(state.d).filter((d) => d[1] !== 'neutral');
    if (!made.length) return;
    const right = made.filter((d) => d[1] === 'correct').length;
    set(E.raw, Math.round((100 * right) / made.length));
    set(E.min, 0);
    set(E.max, 100);
    if (is2004) set('cmi.score.scaled', (right / made.length).toFixed(4));
    return right / made.length;
  }
  // The prediction of step k, decided by the run: `st` is appPageJson().story.
  function decide(k, st) {
    const pr = st.prediction;
    const n = state.n;
    const at = `cmi.interactions.${n}.`;
    // measured reads "<what was measured>: <value>" and, for choices, ". Answer: <choice>".
    const correct = pr.choices.findIndex((c) => pr.measured.endsWith('. Answer: ' + c));
    const numeric = pr.choices.length === 0;
    const response = numeric ? String(pr.predicted) : letter(pr.predicted);
    const result = numeric ? 'neutral' : correct === pr.predicted ? results.right : results.wrong;
    set(at + 'id', `${storyId}-step-${k + 1}`);
    set(at + 'type', numeric ? 'numeric' : 'choice');
    set(at + (is2004 ? 'timestamp' : 'time'), clock(new Date(predictedAt || Date.now())));
    if (is2004) set(at + 'description', `${pr.question} (${pr.choices.map((c, i) => `${letter(i)}: ${c}`).join('; ')})`.slice(0, 250));
    const value = numeric ? (pr.measured.match(/: (-?[\d.]+(?:e[-+]?\d+)?)%?$/) || [])[1] : undefined;
    if (!numeric && correct >= 0) set(at + 'correct_responses.0.pattern', letter(correct));
    if (numeric && value !== undefined) set(at + 'correct_responses.0.pattern', is2004 ? `${value}[:]${value}` : value);
    set(at + (is2004 ? 'learner_response' : 'student_response'), response);
    set(at + 'result', result);
    set(at + 'latency', span(Math.max(0, (predictedAt || Date.now()) - openedAt)));
    state.n = n + 1;
    record.interactions = state.n;
    state.d[k] = [response, result === results.right ? 'correct' : result === 'neutral' ? 'neutral' : 'wrong'];
    delete state.p[k];
    score();
  }
  function complete() {
    state.c = 1;
    const made = Object.values(state.d).filter((d) => d[1] !== 'neutral');
    const scaled = made.length ? made.filter((d) => d[1] === 'correct').length / made.length : 0;
    const passed = scaled >= mastery;
    if (is2004) {
      set('cmi.completion_status', 'completed');
      set('cmi.success_status', passed ? 'passed' : 'failed');
    } else {
      set('cmi.core.lesson_status', passed ? 'passed' : 'failed');
    }
  }
  function save() {
    set(E.location, String(state.s + 1));
    set(E.suspend, JSON.stringify(state));
    if (is2004) set('cmi.progress_measure', (state.c ? 1 : steps ? Math.min(0.99, state.s / steps) : 0).toFixed(2));
    commit();
  }

  // ---- following the page -----------------------------------------------------------------------
  let lastJson = '', restored = false, finished = false;
  function poll() {
    record.polls += 1;
    const M = window.attnlab;
    if (finished || !M || document.body.dataset.ready !== '1' || !M.appPageJson) return;
    const json = M.appPageJson();
    if (json === lastJson) return;
    lastJson = json;
    let page;
    try { page = JSON.parse(json); } catch (e) { return; }
    const st = page.story;
    if (!st || st.story !== storyId) return;
    steps = st.steps;
    const k = st.step - 1;
    const pr = st.prediction;
    let changed = false;
    if (!restored) {  // resume: the prediction made before leaving, on the step left
      restored = true;
      if (k === state.s && pr && pr.predicted === null && state.p[k] !== undefined) M.appPredict(Number(state.p[k]));
      predictedAt = state.p[k] !== undefined ? Date.now() : 0;
    }
    if (k !== state.s) { state.s = k; openedAt = Date.now(); predictedAt = 0; changed = true; }
    if (pr && pr.predicted !== null && !state.d[k] && state.p[k] !== pr.predicted && !st.answer) {
      state.p[k] = pr.predicted;
      predictedAt = Date.now();
      changed = true;
    }
    if (st.answer && pr && pr.predicted !== null && pr.measured && !state.d[k]) { decide(k, st); changed = true; }
    if (st.answer && st.step === st.steps && !state.c) { complete(); changed = true; }
    if (changed) save();
  }
  const timer = setInterval(poll, POLL_MS);
  // Leaving: the session time, whether the attempt may resume, then Finish / Terminate (once).
  function finish() {
    if (finished) return;
    poll();
    finished = true;
    clearInterval(timer);
    set(E.session, span(Date.now() - started));
    set(E.exit, state.c ? (is2004 ? 'normal' : '') : 'suspend');
    save();
    call(F.finish, '');
  }
  window.addEventListener('pagehide', finish);
  window.addEventListener('beforeunload', finish);
  record.finish = finish;
})();
