// web/twin.js's words for counts (node --test; needs no module): "1 note", not "1 notes", and an
// ordinal "every 2nd", not "every 2th", as the canvas writes them (src/lab/text.hpp).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const source = readFileSync(fileURLToPath(new URL('../../web/twin.js', import.meta.url)), 'utf8');
const window = {};
vm.runInNewContext(source, { window, document: {} });
const { counted, ordinal, thin, thinNote } = window.startAttnlabTwin.text;

test('a count of one is singular', () => {
  assert.equal(counted(1, 'note'), '1 note');
  assert.equal(counted(0, 'note'), '0 notes');
  assert.equal(counted(7, 'point'), '7 points');
});

test('ordinals are written 1st, 2nd, 3rd, 4th, 11th to 13th, 21st', () => {
  const want = { 1: '1st', 2: '2nd', 3: '3rd', 4: '4th', 11: '11th', 12: '12th', 13: '13th', 21: '21st', 22: '22nd', 102: '102nd', 111: '111th' };
  for (const [n, s] of Object.entries(want)) assert.equal(ordinal(Number(n)), s);
});

test("a thinned table's caption says every 2nd row, not every 2th", () => {
  assert.equal(thinNote(39, thin(39)), 'all 39 rows');
  const t = thin(100);
  assert.equal(t.step, 2);
  assert.match(thinNote(100, t), /\(every 2nd and the last\)/);
  assert.match(thinNote(301, thin(301)), /\(every 7th and the last\)/);
});

// Walk 12: separation 4's table kept every 2nd row and dropped the two rows its answer quotes.
test('a thinned table keeps the rows the answer quotes, and says so', () => {
  const t = thin(100, [51, 53, 4]);  // 4 is kept anyway (every 2nd)
  assert.ok(t.rows.includes(51) && t.rows.includes(53) && t.rows.includes(4));
  assert.equal(JSON.stringify(t.rows), JSON.stringify([...t.rows].sort((a, b) => a - b)));  // in order
  assert.equal(t.kept, 2);
  assert.match(thinNote(100, t), /\(every 2nd, the last and 2 rows the answer quotes\)/);
  assert.equal(thin(30, [5]).kept, 0);  // not thinned: every row shows
});

// Walk 14: regression 1's table kept every 61st row and lost exact Newton's few points.
test("a thinned table keeps every row of a curve with few points, and says so", () => {
  const t = thin(300, [], [0, 1, 2, 3, 4]);
  for (const i of [0, 1, 2, 3, 4]) assert.ok(t.rows.includes(i));
  assert.equal(t.few, 4);  // row 0 is kept anyway (every 6th)
  assert.match(thinNote(300, t), /\(every 6th, the last and 4 rows of the curves with few points\)/);
  const both = thin(300, [100], [1]);
  assert.match(thinNote(300, both), /\(every 6th, the last, 1 row the answer quotes and 1 row of the curves with few points\)/);
});

