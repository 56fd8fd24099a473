// Content hashes on the hosted page's module files (docs/design.md, "Content hashes"): in a built
// site, every reference that the page and its module files make to one another (index.html ->
// attnlab.js, attnlab.wasm, twin.js, twin_morph.js, unit_pool.js -> unit_worker.js ->
// attnlab_worker.js -> attnlab_worker.wasm) gets `?v=HASH`, the first 12 hex digits of the SHA-256
// of the file as served (its own references already versioned, so a change anywhere below a file
// changes its hash too); then it writes sw.js (web/offline/sw.js) with the versioned addresses and
// the version of the whole set, and registers it in index.html. A redeploy thus never takes an old
// attnlab.js for a new attnlab.wasm from any cache: each address names its contents.
// The files keep their names (the JS API, attnlab-api.mjs, and the SCORM packages load them by
// name); a query is all that changes. Run again on a site it versioned, it versions it afresh.
//
// usage: node web/offline/version_refs.mjs SITE_DIR
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const VERSIONED = /\?v=[0-9a-f]{12}/g;
const REGISTER = '<script>if ("serviceWorker" in navigator) navigator.serviceWorker.register("sw.js");</script>';
const hash = (data) => crypto.createHash('sha256').update(data).digest('hex').slice(0, 12);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// A quoted reference to `name` ('name' or "name"), versioned or not.
const refPattern = (name) => new RegExp(`(['"])${escape(name)}(?:\\?v=[0-9a-f]{12})?(['"])`, 'g');

// Versions the site in `dir`; returns {version, files: {name: 'name?v=HASH'}}.
export function versionRefs(dir) {
  // The module files: every .js and .wasm beside index.html (sw.js is written below).
  const names = fs.readdirSync(dir).filter((f) => /\.(js|wasm)$/.test(f) && f !== 'sw.js' && fs.statSync(path.join(dir, f)).isFile()).sort();
  for (const need of ['attnlab.js', 'attnlab.wasm']) if (!names.includes(need)) throw new Error(`version_refs: ${dir} has no ${need}`);
  const text = new Map();
  for (const f of names) {
    const data = fs.readFileSync(path.join(dir, f));
    text.set(f, f.endsWith('.js') ? data.toString('utf8').replace(VERSIONED, '') : data);
  }
  const uses = (f, g) => typeof text.get(f) === 'string' && refPattern(g).test(text.get(f));
  // Versioned in order: a file once every file it names has its hash.
  const versioned = {};
  let left = names.slice();
  while (left.length) {
    const ready = left.filter((f) => left.every((g) => g === f || !uses(f, g)));
    if (!ready.length) throw new Error(`version_refs: the files name one another in a circle: ${left.join(', ')}`);
    for (const f of ready) {
      let data = text.get(f);
      if (typeof data === 'string') for (const [g, v] of Object.entries(versioned)) data = data.replace(refPattern(g), `$1${v}$2`);
      versioned[f] = `${f}?v=${hash(data)}`;
      fs.writeFileSync(path.join(dir, f), data);
    }
    left = left.filter((f) => !ready.includes(f));
  }
  let index = fs.readFileSync(path.join(dir, 'index.html'), 'utf8').replace(VERSIONED, '').replace(REGISTER + '\n', '');
  for (const [g, v] of Object.entries(versioned)) index = index.replace(refPattern(g), `$1${v}$2`);
  // The service worker, registered by index.html only (not by the SCORM packages).
  if (!index.includes('</body>')) throw new Error('version_refs: index.html has no </body> for the service worker');
  index = index.replace('</body>', `${REGISTER}\n</body>`);
  fs.writeFileSync(path.join(dir, 'index.html'), index);
  const kept = ['./', 'index.html', ...Object.values(versioned)];
  const version = hash(kept.join('\n') + index);
  const sw = fs.readFileSync(path.join(here, 'sw.js'), 'utf8')
    .replace('__VERSION__', version).replace('__FILES__', JSON.stringify(kept));
  fs.writeFileSync(path.join(dir, 'sw.js'), sw);
  return { version, files: versioned };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) { console.error('usage: node web/offline/version_refs.mjs SITE_DIR'); process.exit(2); }
  const { version, files } = versionRefs(dir);
  console.log(`version ${version}: ${Object.values(files).join(', ')}`);
}
