// The LMS's side of the SCORM tests (scorm_run.mjs, web/e2e/scorm.test.mjs): the host page
// (scorm-again in a page that frames the package's launch page) and the manifest's structure.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

// The host page: hostStart(version, folder, resume) puts a fresh scorm-again API where the package
// looks (window.API or window.API_1484_11), with `resume` loads the last session's CMI (kept in
// this page, as an LMS keeps it: a driver's JSON may reorder its keys, and scorm-again checks a
// learner_response against the type set before it), marked to resume, and frames folder/launch.html (by its full address: the drivers find the frame by it); every
// call the run-time refuses (its error code) is kept.
// hostLeave() navigates the frame away (the SCO finishes on pagehide) and resolves to
// {cmi, refused, calls, adapter}: the run-time's CMI as JSON, the refused calls, the number of
// calls of each function in the session, the adapter's record.
export function hostPage() {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A test LMS</title><link rel="icon" href="data:,"><script src="scorm-again.js"></script></head>
<body><iframe id="sco" title="the package" style="width:1200px;height:760px;border:0"></iframe>
<script>
let api = null, refused = [], calls = {}, kept = null;
const frame = document.getElementById('sco');
window.hostStart = (version, folder, resume) => {
  const is2004 = version === '2004';
  api = is2004 ? new Scorm2004API({ logLevel: 5 }) : new Scorm12API({ logLevel: 5 });
  if (resume) {
    const cmi = JSON.parse(JSON.stringify(kept));
    if (is2004) cmi.entry = 'resume'; else cmi.core.entry = 'resume';
    api.loadFromJSON(cmi, '');
  } else if (!is2004) api.cmi.student_data.mastery_score = '70';  // the LMS's own, not the package's 60
  // (2004: an LMS that keeps no passing score, so the package's 0.6 decides; with one, the
  // run-time itself decides success_status from the score)
  const names = is2004 ? ['Initialize', 'GetValue', 'SetValue', 'Commit', 'Terminate']
    : ['LMSInitialize', 'LMSGetValue', 'LMSSetValue', 'LMSCommit', 'LMSFinish'];
  const lastError = is2004 ? 'GetLastError' : 'LMSGetLastError';
  for (const name of names) {
    const call = api[name].bind(api);
    api[name] = (...args) => {
      const out = call(...args);
      calls[name] = (calls[name] || 0) + 1;
      const code = String(api[lastError]());
      // Reading an element never set (2004's 403) is how a SCO detects a first session: allowed.
      if (code !== '0' && !(code === '403' && name === 'GetValue')) refused.push(name + '(' + args.join(', ') + '): ' + code);
      return out;
    };
  }
  delete window.API; delete window.API_1484_11;
  window[is2004 ? 'API_1484_11' : 'API'] = api;
  return new Promise((resolve) => { frame.onload = () => resolve(); frame.src = new URL(folder + '/launch.html', location.href).href; });
};
// The CMI as a table of element and value (what an LMS's attempt report lists), for a screenshot.
window.hostShowCmi = (cmi) => {
  const rows = [];
  const walk = (prefix, v) => {
    if (v && typeof v === 'object') { for (const [k, x] of Object.entries(v)) walk(prefix + '.' + k, x); }
    else if (v !== '' && !/learner_preference|student_preference|comments|_children/.test(prefix)) rows.push([prefix, String(v)]);
  };
  walk('cmi', cmi);
  const esc = (t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  document.body.innerHTML = '<table style="font:13px monospace;border-collapse:collapse">' + rows.map(([k, v]) =>
    '<tr><td style="border:1px solid #bbb;padding:1px 6px">' + esc(k) + '</td><td style="border:1px solid #bbb;padding:1px 6px">' +
    esc(v.length > 90 ? v.slice(0, 90) + '...' : v) + '</td></tr>').join('') + '</table>';
};
window.hostLeave = () => new Promise((resolve) => {
  const record = frame.contentWindow.attnlabScorm;
  frame.onload = () => {
    const counted = calls;
    calls = {};
    kept = JSON.parse(JSON.stringify(api.cmi));
    resolve({ cmi: JSON.parse(JSON.stringify(api.cmi)), refused: refused.splice(0), calls: counted,
      adapter: { found: record.found, errors: [...record.errors], interactions: record.interactions } });
  };
  frame.src = 'about:blank';
});
</script></body></html>
`;
}

// The structure SCORM's content-packaging rules and the run-time need, beyond the schemas (checked
// too, by validateManifest below): the manifest at the root, its namespace and schemaversion for the
// version, one organization with one item pointing at one SCO resource whose href is launch.html,
// every listed file in the package and every packaged file listed, the mastery score.
export function inspectManifest(folder, version) {
  const text = fs.readFileSync(path.join(folder, 'imsmanifest.xml'), 'utf8');
  const problems = [];
  const need = (ok, what) => { if (!ok) problems.push(what); };
  const is2004 = version === 'scorm2004';
  need(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>'), 'an XML declaration');
  need(text.includes(is2004 ? 'xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"' : 'xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"'), 'the content-packaging namespace');
  need(text.includes(`<schemaversion>${is2004 ? '2004 3rd Edition' : '1.2'}</schemaversion>`), 'the schemaversion');
  need((text.match(/<organization /g) || []).length === 1 && (text.match(/<item /g) || []).length === 1, 'one organization with one item');
  need((text.match(/<resource /g) || []).length === 1, 'one resource');
  need(new RegExp(`adlcp:scorm${is2004 ? 'Type' : 'type'}="sco" href="launch.html"`).test(text), 'a SCO resource launching launch.html');
  need(text.includes('identifierref="attnlab-sco"') && text.includes('identifier="attnlab-sco"'), 'the item references the resource');
  need(is2004 ? /<imsss:minNormalizedMeasure>0\.\d+<\/imsss:minNormalizedMeasure>/.test(text) : /<adlcp:masteryscore>\d+<\/adlcp:masteryscore>/.test(text), 'a mastery score');
  const listed = [...text.matchAll(/<file href="([^"]+)"\/>/g)].map((m) => m[1]).sort();
  const packaged = fs.readdirSync(folder).filter((f) => f !== 'imsmanifest.xml').sort();
  need(JSON.stringify(listed) === JSON.stringify(packaged), `the files listed are the files packaged (${listed} vs ${packaged})`);
  for (const f of ['launch.html', 'scorm_adapter.js', 'attnlab.js', 'attnlab.wasm']) need(packaged.includes(f), `the package holds ${f}`);
  const launch = fs.readFileSync(path.join(folder, 'launch.html'), 'utf8');
  need(/<head>\n<script src="scorm_adapter\.js" data-story="[\w.-]+" data-version="(1\.2|2004)"/.test(launch), 'the adapter first in the launch page');
  need(!/https?:\/\//.test(launch.replace(/http:\/\/www\.w3\.org\/[^"]*/g, '')), 'the launch page names no other site');
  const title = (text.match(/<title>([^<]*)<\/title>/) || [])[1] || '';
  const description = (text.match(/description>\s*<[^>]*string[^>]*>([^<]*)</) || [])[1] || '';
  need(title !== '' && description !== '', 'a title and a description');
  problems.push(...validateManifest(path.join(folder, 'imsmanifest.xml'), version));
  return { problems, title, description };
}

// The IMS/ADL schemas (scripts/setup.sh fetches them into the cache's scorm-xsd/): each version's
// manifest validated by xmllint against a schema that imports every namespace it uses. The 2004
// manifest's inline LOM metadata is checked only as a <lom:lom> element (no package ships lom.xsd:
// a stub schema takes its place); the content packaging, adlcp and imsss parts are checked whole.
// Returns xmllint's complaints, [] when the manifest validates.
export const XSD_DIR = process.env.ATTNLAB_SCORM_XSD || path.join(os.homedir(), '.cache', 'attnlab', 'scorm-xsd');
export function validateManifest(manifestFile, version) {
  const is2004 = version === 'scorm2004';
  const edition = path.join(XSD_DIR, is2004 ? 'scorm20043rdedition' : 'scorm12edition');
  if (!fs.existsSync(edition)) return [`no schemas in ${edition}: scripts/setup.sh fetches them`];
  const imports = is2004
    ? [['http://www.imsglobal.org/xsd/imscp_v1p1', 'imscp_v1p1.xsd'], ['http://www.adlnet.org/xsd/adlcp_v1p3', 'adlcp_v1p3.xsd'],
      ['http://www.imsglobal.org/xsd/imsss', 'imsss_v1p0.xsd']]
    : [['http://www.imsproject.org/xsd/imscp_rootv1p1p2', 'imscp_rootv1p1p2.xsd'], ['http://www.adlnet.org/xsd/adlcp_rootv1p2', 'adlcp_rootv1p2.xsd'],
      ['http://www.imsglobal.org/xsd/imsmd_rootv1p2p1', 'imsmd_rootv1p2p1.xsd']];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-xsd-'));
  const LOM = 'http://ltsc.ieee.org/xsd/LOM';
  fs.writeFileSync(path.join(tmp, 'lom-stub.xsd'), `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="${LOM}" elementFormDefault="qualified">
<xs:element name="lom"><xs:complexType><xs:sequence><xs:any processContents="skip" minOccurs="0" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element></xs:schema>`);
  if (is2004) imports.push([LOM, path.join(tmp, 'lom-stub.xsd')]);
  fs.writeFileSync(path.join(tmp, 'all.xsd'), `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:attnlab:all">
${imports.map(([ns, file]) => `<xs:import namespace="${ns}" schemaLocation="${path.resolve(edition, file)}"/>`).join('\n')}
</xs:schema>`);
  const run = spawnSync('xmllint', ['--noout', '--nonet', '--schema', path.join(tmp, 'all.xsd'), manifestFile], { encoding: 'utf8' });
  fs.rmSync(tmp, { recursive: true, force: true });
  if (run.error) return [`xmllint: ${run.error.message} (scripts/setup.sh installs libxml2-utils)`];
  // ims_xml.xsd (1.2) declares the xml namespace as its default one, which libxml2 reports and skips.
  const complaints = run.stderr.split('\n').filter((l) => /error|fails to validate/i.test(l) && !/ims_xml\.xsd/.test(l));
  return run.status === 0 && complaints.length === 0 ? [] : complaints.length ? complaints : [run.stderr.trim()];
}
