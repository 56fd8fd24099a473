// The canvas's text twin: the same page as native HTML, built from the App's own state
// through the page's hooks (window.attnlab.app*, src/web/app_bindings.cpp) and kept in sync both ways.
// It is a <main> landmark after the canvas: visually hidden until a control in it has the keyboard
// focus (then it shows as a panel over the canvas, so the focus is always visible), and the whole
// page in the text view (view=text, or the switch below). Edits go back through the hooks the
// canvas's own controls use (appSetParam, appSelectPreset, appSelectExperiment, appOpenStory,
// appGoHome, appFreeLab, appRunControl, appPredict, appStoryStep, appDownload, appShare): the twin
// reads no link and writes none, C++ decodes every link. Loaded by web/shell.html; started by
// startAttnlabTwin(Module) once the App draws its first frame.
(function () {
  'use strict';
  const POLL_MS = 250;  // 4 Hz: the twin follows a running experiment's progress
  // While a run computes, its results (tables, curves, notes) are rebuilt at most this often: each
  // rebuild reads the run's whole JSON, writes its HTML and lays the page out again on the page's
  // main thread, which a 4 Hz rebuild made the largest cost of a run after the workers' own
  // (docs/design.md "Frames on demand"). The progress still moves at 4 Hz; a finished run shows at once.
  const RESULTS_WHILE_COMPUTING_MS = 2000;
  const MAX_ROWS = 50;  // a table shows at most about this many rows; the full CSV is one button away
  const FEW_POINTS = 12;  // a curve with at most this many points keeps every row in a thinned table
  const WIDE_COLUMNS = 5;  // a table of more columns says that it scrolls sideways (a phone shows about 5)

  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const parse = (text, fallback) => { try { return JSON.parse(text); } catch (e) { return fallback; } };
  // A number as a sentence says it: 3 significant digits, no exponent for ordinary sizes.
  function say(x) {
    if (x === null || x === undefined || !isFinite(x)) return 'undefined';
    if (x === 0) return '0';
    const a = Math.abs(x);
    if (a >= 1e-3 && a < 1e6) return String(Number(x.toPrecision(3)));
    return x.toExponential(2);
  }
  // A table's cell: a number to `digits` significant digits (4: a plot's read-out shows no more;
  // the CSV has every digit), an integer whole, text as it is.
  function cell(v, digits = 4) {
    if (v === null || v === undefined) return '';
    if (typeof v !== 'number') return String(v);
    if (!isFinite(v)) return String(v);
    if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
    const a = Math.abs(v);
    return a >= 1e-4 && a < 1e6 ? String(Number(v.toPrecision(digits))) : v.toExponential(digits - 1);
  }
  // A count with its noun ("1 note", "3 notes") and an ordinal ("2nd", "11th", "23rd"), as the
  // canvas writes them (src/lab/text.hpp's counted and ordinal).
  const counted = (n, noun) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  function ordinal(n) {
    const two = Math.abs(n) % 100, one = two % 10;
    return `${n}${two >= 11 && two <= 13 ? 'th' : one === 1 ? 'st' : one === 2 ? 'nd' : one === 3 ? 'rd' : 'th'}`;
  }
  // Rows to show of n: all up to MAX_ROWS, else every k-th, the last and the rows `keep` names (those
  // a story's answer quotes).
  // The rows a long table shows: every step-th and the last, the rows the answer quotes (`keep`),
  // and `few`: the rows of curves with few points (walk 14: exact Newton's 5 rows fell between every
  // 61st of gradient descent's 300).
  function thin(n, keep = [], few = []) {
    if (n <= MAX_ROWS) return { rows: [...Array(n).keys()], step: 1, kept: 0, few: 0 };
    const step = Math.ceil(n / MAX_ROWS);
    const rows = new Set();
    for (let i = 0; i < n; i += step) rows.add(i);
    rows.add(n - 1);
    const before = rows.size;
    for (const i of keep) if (i >= 0 && i < n) rows.add(i);
    const quoted = rows.size;
    for (const i of few) if (i >= 0 && i < n) rows.add(i);
    return { rows: [...rows].sort((a, b) => a - b), step, kept: quoted - before, few: rows.size - quoted };
  }
  function thinNote(n, t) {  // "every 2nd and the last"
    if (t.step === 1) return `all ${n} rows`;
    const parts = [`every ${ordinal(t.step)}`, 'the last'];
    if (t.kept) parts.push(`${counted(t.kept, 'row')} the answer quotes`);
    if (t.few) parts.push(`${counted(t.few, 'row')} of the curves with few points`);
    const said = parts.length === 2 ? parts.join(' and ') : parts.slice(0, -1).join(', ') + ' and ' + parts[parts.length - 1];
    return `${t.rows.length} of ${n} rows (${said}); the full table is in the CSV`;
  }
  // The link's keys and values, in order (the App writes key=value pairs joined by &).
  function start(M) {
    const canvas = document.getElementById('canvas');
    const root = document.getElementById('twin');
    if (!root || !M.appPageJson) return;
    const sections = {};
    for (const name of ['toolbar', 'page', 'params', 'results']) {
      sections[name] = root.querySelector(`[data-twin-section="${name}"]`);
      sections[name].dataset.html = '';
    }
    const describeCache = {};
    const describe = (id) => describeCache[id] || (describeCache[id] = parse(M.describeExperiment(id), {}));
    const stories = parse(M.listStories(), []);
    const experiments = parse(M.listExperiments(), []);
    const fieldErrors = {};  // key -> the schema's message for a refused value (kept until the field changes)
    let typed = {};  // key -> the text the user typed and was refused, kept in the field
    let lastKey = '';

    // ---- what the twin reads -------------------------------------------------------------------
    function read() {
      return {
        page: parse(M.appPageJson(), { page: 'lab' }),
        params: parse(M.appTwinParamsJson(), { params: {}, visible: [] }),
        state: M.appState(),
        progress: M.appProgress(),
        hash: M.appHash(),
        compute: parse(M.appComputeJson(), {}),
        textView: M.appTextView(),
      };
    }

    // ---- the toolbar: view switch, home, pickers, run buttons, progress, exports ----------------
    function toolbarHtml(s) {
      const p = s.params, shows = p.shows || {};
      const desc = describe(p.experiment);
      // The way back to the drawn page, said where the text view starts (walk 12: only Shift+Tab, unsaid).
      let h = `<button type="button" data-act="view" aria-pressed="${s.textView}">Text view</button>` +
        ` <span class="twin-way-back">${s.textView ? 'Alt+T or this button: back to the drawn page.' : 'Shift+Tab: back to the drawn page; Alt+T keeps this view.'}</span>`;
      if (!p.embed && s.page.page !== 'start') h += ` <button type="button" data-act="home">Home: the stories</button>`;
      if (s.page.page === 'lab' && !p.embed) {
        h += ` <label>Experiment <select data-act="experiment">` + experiments.map((e) =>
          `<option value="${esc(e.id)}"${e.id === p.experiment ? ' selected' : ''}>${esc(e.title)}</option>`).join('') + `</select></label>`;
      }
      if (s.page.page === 'lab' && shows.presets && desc.presets) {
        h += ` <label>Preset <select data-act="preset"><option value=""${p.preset ? '' : ' selected'}>custom (no preset)</option>` +
          desc.presets.map((q) => `<option value="${esc(q.name)}"${q.name === p.preset ? ' selected' : ''}>${esc(q.name)}: ${esc(q.title)}</option>`).join('') +
          `</select></label>`;
      }
      if (s.page.page !== 'start' && shows.run) {
        const running = s.state === 'running', paused = s.state === 'paused';
        // Run waits while a field shows a refused value, here (fieldErrors) as on the canvas.
        const refused = Object.keys(fieldErrors)[0];
        const blocked = s.page.runBlocked ||
          (refused ? M.appRefusedValueMessage(fieldErrors[refused]) : '');
        const dis = blocked ? ` aria-disabled="true" aria-describedby="twin-blocked"` : '';
        h += ` <button type="button" id="twin-run" data-act="${running ? 'pause' : 'run'}"${running ? '' : dis}>${running ? 'Pause' : paused ? 'Resume' : 'Run'}</button>`;
        h += ` <button type="button" data-act="step"${dis}>Step run</button>`;
        h += ` <button type="button" data-act="reset">Reset</button>`;
        if (blocked) h += ` <span id="twin-blocked">${esc(blocked)}</span>`;
        const pct = Math.round(100 * s.progress);
        h += ` <label>Progress <progress max="100" value="${pct}">${pct}%</progress></label> <span>${esc(s.state)}, ${pct}%</span>`;
        const c = s.compute;
        h += ` <span>${c.workers ? `Computes on ${c.threads} worker thread${c.threads === 1 ? '' : 's'}` : 'Computes on the page\'s main thread'}</span>`;
      }
      if (s.page.page !== 'start' && shows.export) {
        const none = s.state === 'ready' ? ' aria-disabled="true"' : '';
        h += ` <button type="button" data-act="download" data-kind="csv"${none}>Download CSV</button>`;
        h += ` <button type="button" data-act="download" data-kind="json"${none}>Download JSON</button>`;
        h += ` <button type="button" data-act="share">Share (copy the link)</button>`;
      }
      return h;
    }

    // ---- the start page, or the story's step, or the experiment's description -------------------
    function pageHtml(s) {
      if (s.page.page === 'start') {
        let h = `<h2>Stories</h2><p>Papers on the theory of attention, as experiments that run in your browser. ` +
          `Each story walks through one paper in a few steps.</p><ul>`;
        for (const st of stories) {
          h += `<li><h3>${esc(st.paper)}</h3><p>${esc(st.authors)}. ${esc(st.result)}</p>` +
            `<button type="button" data-act="story" data-story="${esc(st.id)}">Start the story: ${esc(st.paper)}</button></li>`;
        }
        return h + `</ul><button type="button" data-act="freelab">Free lab: every experiment, every parameter</button>`;
      }
      const desc = describe(s.params.experiment);
      if (s.page.page !== 'story' || !s.page.story) {
        return `<h2>The paper: ${esc(desc.title || s.params.experiment)}</h2><p>${esc(desc.paper || '')}</p><p>${esc(desc.summary || '')}</p>`;
      }
      const st = s.page.story;
      const story = stories.find((x) => x.id === st.story) || {};
      let h = `<h2>The paper: ${esc(story.paper || st.story)}</h2>`;
      // The first use of each glossary term is a <dfn> (its definition as a title), and the terms
      // are listed with their definitions under the text, open: a closed disclosure reads as a bare
      // heading in the text view and to a screen reader's text.
      const parts = st.textParts || [{ text: st.text }];
      const terms = st.words || [];  // StoryState::words: the text's, the plots' and (after the run) the answer's
      const marked = (ps) => ps.map((p) => (p.term ? `<dfn title="${esc(p.definition)}">${esc(p.text)}</dfn>` : esc(p.text))).join('');
      h += `<h3 id="twin-step-title" tabindex="-1">Step ${st.step} of ${st.steps}: ${esc(st.title)}</h3><p>` + marked(parts) + `</p>`;
      if (terms.length) {
        h += `<section class="twin-glossary" aria-labelledby="twin-words"><h4 id="twin-words">Words in this step</h4><dl>` +
          terms.map((p) => `<dt><dfn>${esc(p.term)}</dfn></dt><dd>${esc(p.definition)} (${esc(p.source)})</dd>`).join('') + `</dl></section>`;
      }
      const hints = parse(M.appStoryHintsJson(), {});  // the canvas's own words (StoryPanel)
      if (hints.plot) h += `<p id="twin-hint-plot">${esc(hints.plot)}</p>`;
      h += `<h4>Question</h4><p id="twin-question">${esc(st.question)}</p>`;
      const pr = st.prediction;
      if (pr) {
        if (pr.choices.length) {
          h += `<fieldset><legend>Your prediction: ${esc(pr.question)}</legend>`;
          pr.choices.forEach((c, i) => {
            h += `<div><input type="radio" name="twin-prediction" id="twin-choice-${i}" value="${i}" data-act="predict"` +
              `${pr.predicted === i ? ' checked' : ''}><label for="twin-choice-${i}">${esc(c)}</label></div>`;
          });
          h += `</fieldset>`;
        } else {
          h += `<label for="twin-guess">Your prediction: ${esc(pr.question)}</label> <input type="text" inputmode="decimal" id="twin-guess"` +
            ` data-act="guess" value="${pr.predicted === null ? '' : esc(pr.predicted)}">`;
        }
        if (pr.predictedText) h += `<p id="twin-predicted">Your prediction: ${esc(pr.predictedText)}</p>`;
        if (hints.run) h += `<p id="twin-hint-run">${esc(hints.run)}</p>`;
        // Run under the prediction too, as on the canvas (StoryPanel): the question and its action together.
        if (hints.run && (s.state === 'ready' || s.state === 'failed')) {
          const dis = s.page.runBlocked ? ` aria-disabled="true" aria-describedby="twin-hint-run"` : '';
          h += `<button type="button" id="twin-step-run" data-act="run"${dis}>Run</button>`;
        }
        if (pr.measured) h += `<p>The run measured: ${esc(pr.measured)}</p>`;
      }
      if (st.answer) h += `<h4 id="twin-answer-heading" tabindex="-1">Answer</h4><p id="twin-answer">${marked(st.answerParts || [{ text: st.answer }])}</p>`;
      if (st.answer && st.changed) h += `<button type="button" data-act="stepsettings">Use the step's settings</button>`;
      if (!st.answer) h += `<p>The answer shows once the run is done.</p>`;
      if (st.summary) h += `<h4>${esc(st.summaryHeading)}</h4><p id="twin-summary">${marked(st.summaryParts || [{ text: st.summary }])}</p>`;
      h += `<button type="button" data-act="back"${st.step > 1 ? '' : ' aria-disabled="true"'}>Back</button> ` +
        `<button type="button" data-act="next"${st.step < st.steps ? '' : ' aria-disabled="true"'}>Next</button>`;
      return h;
    }

    // ---- every shown parameter as a labelled native input --------------------------------------
    function paramsHtml(s) {
      if (s.page.page === 'start') return '';
      const desc = describe(s.params.experiment);
      const specs = (desc.params || []).filter((sp) => s.params.visible.includes(sp.key));
      let h = `<h2>Parameters</h2>`;
      if (s.params.error && !Object.keys(fieldErrors).length) h += `<p role="alert">${esc(s.params.error)}</p>`;
      if (s.params.shows && s.params.shows.seed && s.page.page === 'lab') specs.push({ key: 'seed', label: 'Seed', type: 'integer', allowed: 'integer', help: 'The random seed: the same seed gives the same numbers.' });
      for (const sp of specs) {
        const id = `twin-p-${sp.key}`;
        const value = sp.key === 'seed' ? s.params.seed : s.params.params[sp.key];
        const shown = typed[sp.key] !== undefined ? typed[sp.key] : value;
        const err = fieldErrors[sp.key];
        const help = `${id}-help`, errId = `${id}-error`;
        const described = `aria-describedby="${help}${err ? ' ' + errId : ''}"${err ? ' aria-invalid="true"' : ''}`;
        h += `<div class="twin-field">`;
        if (sp.type === 'boolean') {
          h += `<input type="checkbox" id="${id}" data-param="${esc(sp.key)}" ${described}${value === 'true' || value === '1' ? ' checked' : ''}>` +
            ` <label for="${id}">${esc(sp.label)}</label>`;
        } else if (sp.type === 'choice') {
          h += `<label for="${id}">${esc(sp.label)}</label> <select id="${id}" data-param="${esc(sp.key)}" ${described}>` +
            (sp.choices || []).map((c) => `<option${c === value ? ' selected' : ''}>${esc(c)}</option>`).join('') + `</select>`;
        } else {
          h += `<label for="${id}">${esc(sp.label)}${sp.unit ? ' (' + esc(sp.unit) + ')' : ''}</label> ` +
            `<input type="text" id="${id}" data-param="${esc(sp.key)}" value="${esc(shown)}" ${described}>`;
        }
        h += ` <span id="${help}">Allowed: ${esc(sp.allowed || sp.type)}. ${esc(sp.help || '')}</span>`;
        if (err) h += ` <span id="${errId}" role="alert">Refused: ${esc(err)}</span>`;
        h += `</div>`;
      }
      // Walk 16: a step that shows no setting left the heading alone, with nothing under it.
      if (!specs.length) h += `<p>This step shows no settings: it runs as the story sets it up.</p>`;
      return h;
    }

    // ---- the results: run table, figures (caption, sentences, data table), heatmaps, notes ------
    function tableHtml(caption, columns, rows, quoted = [], few = []) {
      // The rows whose value in a quoted column is the one the answer reads.
      const keep = [];
      for (const q of quoted) {
        const c = columns.indexOf(q.column);
        if (c >= 0) rows.forEach((r, i) => { if (Number(r[c]) === q.value) keep.push(i); });
      }
      const t = thin(rows.length, keep, few);
      // A wide table scrolls in its own box (web/shell.html), so the keyboard can focus it to scroll.
      // Walk 17: a table wider than a narrow screen was cut at its edge with nothing saying it scrolls.
      const wide = columns.length > WIDE_COLUMNS ?
        `; ${columns.length} columns: it scrolls sideways (arrow keys once it has focus)` : '';
      let h = `<table tabindex="0"><caption>${esc(caption)}: ${thinNote(rows.length, t)}${wide}</caption><thead><tr>` +
        columns.map((c) => `<th scope="col">${esc(c)}</th>`).join('') + `</tr></thead><tbody>`;
      for (const i of t.rows) h += `<tr>` + rows[i].map((v) => `<td>${esc(cell(v))}</td>`).join('') + `</tr>`;
      return h + `</tbody></table>`;
    }
    function curveSentence(plot, se) {
      const pts = se.x.map((x, i) => [x, se.y[i]]).filter(([x, y]) => x !== null && y !== null);
      if (!pts.length) return `${se.name}: no points yet.`;
      // An x that counts (an iteration) is said whole (walk 18: "k 18900" for the table's 18871).
      const sx = (x) => (Number.isInteger(x) ? String(x) : say(x));
      // Walk 17: a level line read "highest 0.5 at |S| 1, lowest 0.5 at |S| 1".
      if (se.level) return `${se.name}: a level line at ${say(pts[0][1])} across the plot.`;
      let hi = pts[0], lo = pts[0];
      for (const p of pts) { if (p[1] > hi[1]) hi = p; if (p[1] < lo[1]) lo = p; }
      if (hi[1] === lo[1] && pts.length > 1)
        return `${se.name}: ${counted(pts.length, 'point')}, flat at ${say(hi[1])} from ${plot.x_name} ` +
          `${sx(pts[0][0])} to ${sx(pts[pts.length - 1][0])}.`;
      // The axes' short names in every sentence ("p", not "p (each sequence's marks drawn side by side)";
      // walk 12: tiring with a screen reader; lab/text.hpp axis_short_name); the caption gives them whole.
      const xl = plot.x_name, yl = plot.y_name;
      const first = pts[0], last = pts[pts.length - 1];
      return `${se.name}: ${counted(pts.length, 'point')}; ${yl} starts at ${say(first[1])} (${xl} ${sx(first[0])}) and ends at ` +
        `${say(last[1])} (${xl} ${sx(last[0])}); highest ${say(hi[1])} at ${xl} ${sx(hi[0])}, lowest ${say(lo[1])} at ${xl} ${sx(lo[0])}.`;
    }
    function plotTable(plot, quoted) {
      // One row per x; a column per series (series that share their x values share rows).
      const xs = [];
      const seen = new Map();
      for (const se of plot.series) for (const x of se.x) if (!seen.has(x)) { seen.set(x, xs.length); xs.push(x); }
      const rows = xs.map((x) => [x, ...plot.series.map(() => null)]);
      plot.series.forEach((se, k) => se.x.forEach((x, i) => { rows[seen.get(x)][k + 1] = se.y[i]; }));
      // Every row of a curve with few points stays when the table is thinned, and each curve's last
      // point (walk 18: a curve that ended before the others lost the row its answer quotes).
      const few = [];
      for (const se of plot.series) if (se.x.length <= FEW_POINTS) for (const x of se.x) few.push(seen.get(x));
      for (const se of plot.series) {
        const last = se.x.findLastIndex((x, i) => x !== null && se.y[i] !== null);
        if (last >= 0) few.push(seen.get(se.x[last]));
      }
      // x to 6 digits: it names the row (points 4 digits would merge stay apart), the values to 4.
      return tableHtml(`Data of ${plot.title}`, [plot.x_label || 'x', ...plot.series.map((se) => se.name)],
        rows.map(([x, ...ys]) => [cell(x, 6), ...ys]), quoted, few);
    }
    function mapHtml(hm, i) {
      let h = `<figure aria-labelledby="twin-hm-${i}"><figcaption id="twin-hm-${i}">Heatmap ${i + 1}: ${esc(hm.title)}</figcaption>` +
        `<p>${hm.rows} by ${hm.cols} (${esc(hm.y_label || 'rows')} by ${esc(hm.x_label || 'columns')}); ${esc(hm.value_label || 'values')} from ${say(hm.low)} to ${say(hm.high)}.` +
        `${hm.extent ? ' It spans ' + esc(hm.extent) + '.' : ''}${hm.note ? ' ' + esc(hm.note) : ''}</p>`;
      // A ringed point (x* on a loss map) lies inside a cell: the value given is the cell's, said so (walk
      // 13: x* read "value -2.38" where L - L* = 0 exactly).
      if (hm.marks.length) h += `<p>Ringed entries:</p><ul>` + hm.marks.map((m) =>
        `<li>${esc(m.label)}: ${esc(m.place)}, ${m.point ? 'in a cell whose value is' : 'value'} ${say(m.value)}</li>`).join('') + `</ul>`;
      if (hm.paths.length) h += `<p>Paths drawn on it:</p><ul>` + hm.paths.map((p) =>
        // A path of two points is a line (walk 19: "tokens left out: 2 points").
        `<li>${esc(p.label)}: ${p.points === 2 ? 'a line' : counted(p.points, 'point') + ','} from ${esc(p.first || '')} ` +
        `to ${esc(p.last)}</li>`).join('') + `</ul>`;
      return h + `</figure>`;
    }
    function resultsHtml(s) {
      if (s.page.page === 'start') return '';
      const run = parse(M.appJson(), {});
      const figs = parse(M.appTwinFiguresJson(), { plots: [], heatmaps: [] });
      let h = `<h2>Results</h2>`;
      if (figs.pending) {  // a story step's named plot before Run: its frame first, drawn at Run
        const f = figs.pending;
        h += `<figure aria-labelledby="twin-fig-named"><figcaption id="twin-fig-named">The step's plot: ${esc(f.title)}` +
          (f.y_label || f.x_label ? ` (${esc(f.y_label || 'y')} against ${esc(f.x_label || 'x')})` : '') +
          `</figcaption><p>${esc(f.note)}.</p></figure>`;
      }
      if (!run.columns) h += figs.inputs && (figs.plots.length || figs.heatmaps.length)
        ? `<p>No run yet. Before the run, the figures below${figs.pending ? ' the step\'s plot' : ''} show what goes in: the run's inputs.</p>`
        : `<p>No run yet: press Run.</p>`;
      // The run's table: first in the free lab; in a story after the figures, whose first is the
      // step's named plot (the text points there first).
      let table = '';
      const quoted = (s.page.story && s.page.story.quoted) || [];  // rows the answer reads stay in a thinned table
      if (run.columns) {
        // In a story the figures above give the data in words; the whole table keeps the CSV's column
        // names, and says so (walk 12: "S, verify_max_error" read as unexplained words).
        const named = s.page.page === 'story' ? 'The run\'s whole table, its columns named as in the CSV (said in words below it)' : 'Results table';
        table = tableHtml(`${named} (${run.complete ? 'the run complete' : Math.round(100 * run.progress) + '% computed'})`, run.columns, run.rows, quoted);
        // What each column is, in words (walk 13: "exp_d1_low", "newton_eps0" unexplained; lab/column_key.hpp).
        const key = run.column_key || {};
        const namedColumns = run.columns.filter((c) => key[c]);
        if (namedColumns.length) table += `<details class="column-key"><summary>What the table's columns are</summary><dl>` +
          namedColumns.map((c) => `<dt>${esc(c)}</dt><dd>${esc(key[c])}</dd>`).join('') + `</dl></details>`;
        if (s.params.shows && s.params.shows.export) table += `<button type="button" data-act="download" data-kind="csv">Download the full table (CSV)</button>`;
      }
      const inStory = s.page.page === 'story';
      if (!inStory) h += table;
      // The figures in the canvas's order (App::twin_figures_json: a story step's named plot or map
      // first), numbered as read; an export names the plot by its own index.
      const maps = figs.heatmaps;
      if (maps.length && maps[0].named) h += mapHtml(maps[0], 0);
      figs.plots.forEach((plot, k) => {
        h += `<figure aria-labelledby="twin-fig-${k}"><figcaption id="twin-fig-${k}">Figure ${k + 1}: ${esc(plot.title)}` +
          ` (${esc(plot.y_label)} against ${esc(plot.x_label)})</figcaption><ul>` +
          plot.series.map((se) => `<li>${esc(curveSentence(plot, se))}</li>`).join('') +
          // Walk 12: the band the step's text names was not in the text view.
          (plot.band ? `<li>A grey band along the foot: ${esc(plot.band)}. A value in it is the rounding error of doubles, not a measured difference.</li>` : '') +
          `</ul>` + plotTable(plot, quoted) +
          (s.params.shows && s.params.shows.export ? `<button type="button" data-act="figure" data-index="${plot.index}">Save figure ${k + 1} as SVG</button>` : '') +
          `</figure>`;
      });
      maps.forEach((hm, k) => { if (!hm.named) h += mapHtml(hm, k); });
      if (inStory) h += table;
      if (run.notes && run.notes.length) h += `<h3>Details (${counted(run.notes.length, 'note')})</h3><ul>` + run.notes.map((n) => `<li>${esc(n)}</li>`).join('') + `</ul>`;
      return h;
    }

    // ---- rendering: a section changes only where its text changed; the focus stays where it is ----
    // force: render even if nothing changed; commit: a field's text was just sent (rewrite it too).
    let answerAwaited = false;  // a story step's Run was pressed here and its answer has not shown yet
    let resultsShown = '', resultsBuiltAt = -Infinity, resultsFor = '';
    function render(force, commit) {
      const s = read();
      // The results are held back only within one run: another page, step, state or setting (the
      // link holds the settings) rebuilds them at once (a step opened while the last step's units
      // still stop must not show that step's results).
      const shownFor = [s.state, s.hash, s.textView, JSON.stringify(s.page)].join('|');
      const key = [M.appChangeStamp(), s.progress, shownFor, JSON.stringify(s.params), JSON.stringify(fieldErrors)].join('|');
      document.body.classList.toggle('text-view', s.textView);
      if (!force && key === lastKey) return;
      lastKey = key;
      const now = performance.now();
      const computing = s.state === 'running' || (s.compute.busy || 0) > 0;
      if (force || !computing || shownFor !== resultsFor || now - resultsBuiltAt >= RESULTS_WHILE_COMPUTING_MS) {
        resultsShown = resultsHtml(s);
        resultsBuiltAt = now;
        resultsFor = shownFor;
      }
      const html = { toolbar: toolbarHtml(s), page: pageHtml(s), params: paramsHtml(s), results: resultsShown };
      const active = document.activeElement;
      const focusId = active && root.contains(active) ? (active.id || active.dataset.act + '|' + (active.dataset.kind || active.dataset.index || '')) : null;
      for (const [name, text] of Object.entries(html)) {
        const el = sections[name];
        if (el.dataset.html === text) continue;
        window.attnlabMorph(el, text, { commit });  // in place: what stays is never re-created (web/twin_morph.js)
        el.dataset.html = text;
        el.hidden = text === '';
      }
      // A story step's Run pressed in the twin: once its answer shows, the focus moves there from
      // the toolbar's Run (walk 11: it stayed at the top, far from the answer), read first.
      const heading = document.getElementById('twin-answer-heading');
      if (answerAwaited && heading) {
        answerAwaited = false;
        if (document.activeElement === document.getElementById('twin-run') || !root.contains(document.activeElement)) {
          heading.focus();
          return;
        }
      }
      if (focusId && !root.contains(document.activeElement)) {
        const again = document.getElementById(focusId) ||
          [...root.querySelectorAll('[data-act]')].find((e) => e.dataset.act + '|' + (e.dataset.kind || e.dataset.index || '') === focusId);
        if (again) again.focus();
      }
    }

    // ---- edits go back to the App --------------------------------------------------------------
    function setParam(key, value) {
      const error = M.appSetParam(key, value);
      if (error) { fieldErrors[key] = error; typed[key] = value; }
      else { delete fieldErrors[key]; delete typed[key]; }
      render(true, true);
      if (error) { const el = document.getElementById(`twin-p-${key}`); if (el) el.focus(); }
    }
    // data-act -> what it does, one row each (the element carries its value or data-*).
    const ACTIONS = {
      view: () => M.appSetTextView(!M.appTextView()),
      home: () => M.appGoHome(),
      freelab: () => M.appFreeLab(),
      story: (el) => M.appOpenStory(el.dataset.story),
      experiment: (el) => M.appSelectExperiment(el.value),
      preset: (el) => M.appSelectPreset(el.value),
      run: () => M.appRunControl('run'),
      pause: () => M.appRunControl('pause'),
      step: () => M.appRunControl('step'),
      reset: () => M.appRunControl('reset'),
      back: () => M.appStoryStep(-1),
      next: () => M.appStoryStep(1),
      stepsettings: () => M.appUseStepSettings(),
      download: (el) => M.appDownload(el.dataset.kind),
      share: () => M.appShare(),
      figure: (el) => M.appExportFigure('svg', Number(el.dataset.index)),
      predict: (el) => M.appPredict(Number(el.value)),
      guess: (el) => { if (el.value.trim() !== '') M.appPredict(Number(el.value)); },
    };
    function act(el) {
      if (el.getAttribute('aria-disabled') === 'true') return;
      const action = ACTIONS[el.dataset.act];
      if (!action) throw new Error(`twin: data-act '${el.dataset.act}' is not allowed; allowed: ${Object.keys(ACTIONS).join(', ')}`);
      const storyRun = el.dataset.act === 'run' && !!document.getElementById('twin-question') &&
        !document.getElementById('twin-answer');
      action(el);
      if (storyRun) answerAwaited = true;
      render(true);
      // A new step (or story) is read from its title: the focus goes there, not to <body>.
      const title = document.getElementById('twin-step-title');
      if (['story', 'back', 'next'].includes(el.dataset.act) && title) title.focus();
      // The step's own Run goes once the run starts: the focus moves to the toolbar's Run, now Pause
      // (the live region says when the answer is ready), never to <body>.
      if (el.id === 'twin-step-run' && !el.isConnected) document.getElementById('twin-run')?.focus();
    }
    root.addEventListener('click', (e) => {
      const el = e.target.closest('button[data-act]');
      if (el) act(el);
    });
    root.addEventListener('change', (e) => {
      const el = e.target;
      if (el.dataset.param) setParam(el.dataset.param, el.type === 'checkbox' ? String(el.checked) : el.value);
      else if (el.matches('select[data-act], input[data-act]')) act(el);
    });
    root.addEventListener('keydown', (e) => {
      // Enter commits a typed value (as the canvas's fields do); Esc brings a refused one back.
      const el = e.target;
      if (e.key === 'Enter' && el.matches('input[type=text]')) {
        if (el.dataset.param) setParam(el.dataset.param, el.value); else act(el);
      } else if (e.key === 'Escape' && el.dataset.param && fieldErrors[el.dataset.param] !== undefined) {
        delete fieldErrors[el.dataset.param]; delete typed[el.dataset.param];  // the value in use again
        render(true, true);
      }
    });

    // Esc on the canvas hands the keyboard to the twin's control that matches the canvas's focused
    // one (App::focused_control), else the twin's first control: the canvas keeps no one. In a text
    // field of the canvas, Esc first leaves the field; the next Esc the canvas.
    const CANVAS_TWIN = { Run: '#twin-run', Step: '[data-act="step"]', Reset: '[data-act="reset"]',
      Share: '[data-act="share"]', CSV: '[data-act="download"][data-kind="csv"]', JSON: '[data-act="download"][data-kind="json"]',
      Home: '[data-act="home"]', Back: '[data-act="back"]', Next: '[data-act="next"]', prediction: '#twin-guess',
      'step-run': '#twin-step-run' };
    function twinMatch(name) {
      if (!name) return null;
      const sel = CANVAS_TWIN[name] || (/^choice:\d+$/.test(name) ? `#twin-choice-${name.slice(7)}` : `#twin-p-${CSS.escape(name)}`);
      return root.querySelector(sel);
    }
    canvas.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' || M.appTextInput() || M.appPopupOpen()) return;  // ImGui's own Escape
      render(true);
      const to = twinMatch(M.appFocusedControl()) || root.querySelector('button, select, input, [tabindex="0"]');
      if (to) to.focus();
    });
    // Alt+T (the README's shortcut) switches the text view anywhere on the page.
    document.addEventListener('keydown', (e) => {
      if (e.altKey && !e.ctrlKey && !e.metaKey && (e.key === 't' || e.key === 'T' || e.code === 'KeyT')) {
        e.preventDefault();
        M.appSetTextView(!M.appTextView());
        render(true);
        if (M.appTextView()) root.querySelector('button').focus(); else canvas.focus();
      }
    });
    render(true);
    setInterval(() => render(false), POLL_MS);
    M.twinRender = () => render(true);  // for tests: render now instead of at the next poll
  }
  window.startAttnlabTwin = start;
  start.text = { counted, ordinal, thin, thinNote };  // for tests (tests/node/twin_text.test.mjs)
})();
// The twin may load after the App's first frame (a slow script): start it then.
if (document.body && document.body.dataset.ready === '1' && window.attnlab && !window.attnlab.twinRender) {
  window.startAttnlabTwin(window.attnlab);
}
