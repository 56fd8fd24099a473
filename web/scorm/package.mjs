// Writes a SCORM package per story into a built site (docs/scorm.md): SITE_DIR/scorm/
// attnlab-story-ID-scorm12.zip and attnlab-story-ID-scorm2004.zip, each a single SCO: an
// imsmanifest.xml (title, the paper, the story's steps as the description, the mastery score), a
// launch page (the lab's page with web/scorm/scorm_adapter.js, opening the story) and the lab's
// module, so the package runs from the LMS's own server with nothing fetched from elsewhere.
// Stories come from the registry through the JS API (no hand list).
//
// usage: node web/scorm/package.mjs SITE_DIR [NODE_MODULE]
//   SITE_DIR     the built site (index.html, attnlab.js, attnlab.wasm, attnlab-api.mjs, ...)
//   NODE_MODULE  the node build of the module (default build/wasm/attnlab_node.cjs)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

// The share of predictions a student must get right to pass (SCORM 1.2 masteryscore 60, SCORM
// 2004 minNormalizedMeasure 0.6); an LMS may override it.
export const MASTERY = 0.6;

const here = path.dirname(fileURLToPath(import.meta.url));
const xml = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// The story's description: the paper, its result, and its steps with their questions.
export function describe(story, paper) {
  const steps = story.steps.map((s, i) => `${i + 1}. ${s.title}: ${s.question}`).join(' ');
  return `${paper.title} (${story.authors}). ${story.result} Steps: ${steps} Each step asks for a prediction, ` +
    `runs the experiment in the browser and shows the answer; the score is the share of predictions that were right.`;
}

// The one SCO resource, launching launch.html and listing every file of the package; `typeAttribute`
// is the version's spelling (1.2 adlcp:scormtype, 2004 adlcp:scormType).
function resources(files, typeAttribute) {
  return `  <resources>
    <resource identifier="attnlab-sco" type="webcontent" ${typeAttribute}="sco" href="launch.html">
${files.map((f) => `      <file href="${xml(f)}"/>`).join('\n')}
    </resource>
  </resources>`;
}

function manifest12(id, title, description, files) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="attnlab-story-${id}-scorm12" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:imsmd="http://www.imsglobal.org/xsd/imsmd_rootv1p2p1"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
    <imsmd:lom><imsmd:general>
      <imsmd:title><imsmd:langstring xml:lang="en">${xml(title)}</imsmd:langstring></imsmd:title>
      <imsmd:description><imsmd:langstring xml:lang="en">${xml(description)}</imsmd:langstring></imsmd:description>
    </imsmd:general></imsmd:lom>
  </metadata>
  <organizations default="attnlab-org">
    <organization identifier="attnlab-org">
      <title>${xml(title)}</title>
      <item identifier="attnlab-item" identifierref="attnlab-sco" isvisible="true">
        <title>${xml(title)}</title>
        <adlcp:masteryscore>${Math.round(MASTERY * 100)}</adlcp:masteryscore>
      </item>
    </organization>
  </organizations>
${resources(files, 'adlcp:scormtype')}
</manifest>
`;
}

function manifest2004(id, title, description, files) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="attnlab-story-${id}-scorm2004" version="1.0"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
  xmlns:lom="http://ltsc.ieee.org/xsd/LOM"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd http://ltsc.ieee.org/xsd/LOM lom.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>2004 3rd Edition</schemaversion>
    <lom:lom><lom:general>
      <lom:title><lom:string language="en">${xml(title)}</lom:string></lom:title>
      <lom:description><lom:string language="en">${xml(description)}</lom:string></lom:description>
    </lom:general></lom:lom>
  </metadata>
  <organizations default="attnlab-org">
    <organization identifier="attnlab-org">
      <title>${xml(title)}</title>
      <item identifier="attnlab-item" identifierref="attnlab-sco" isvisible="true">
        <title>${xml(title)}</title>
        <imsss:sequencing>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="predictions" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>${MASTERY}</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
        </imsss:sequencing>
      </item>
    </organization>
  </organizations>
${resources(files, 'adlcp:scormType')}
</manifest>
`;
}

// The lab's page with the adapter first in <head>, for story `id` and SCORM `version`.
export function launchPage(indexHtml, id, version) {
  const tag = `<script src="scorm_adapter.js" data-story="${xml(id)}" data-version="${version}" data-mastery="${MASTERY}"></script>`;
  const page = indexHtml
    .replace(/<link rel="alternate" type="application\/json\+oembed"[^>]*>\n?/, '')  // names the hosted site
    .replace(/<head>/i, (h) => `${h}\n${tag}`);
  if (!page.includes(tag)) throw new Error('package.mjs: index.html has no <head>');
  return page;
}

async function main() {
  const require = createRequire(import.meta.url);
  const [siteDir, modulePath = 'build/wasm/attnlab_node.cjs'] = process.argv.slice(2);
  if (!siteDir) {
    console.error('usage: node web/scorm/package.mjs SITE_DIR [NODE_MODULE]');
    process.exit(2);
  }
  const { createAttnLab } = await import(pathToFileURL(path.resolve(siteDir, 'attnlab-api.mjs')).href);
  const lab = await createAttnLab({ factory: require(path.resolve(modulePath)) });
  // The page's runtime: every .js and .wasm beside index.html (attnlab-api.mjs is for other sites).
  const runtime = fs.readdirSync(siteDir).filter((f) => /\.(js|wasm)$/.test(f) && fs.statSync(path.join(siteDir, f)).isFile()).sort();
  for (const need of ['attnlab.js', 'attnlab.wasm']) {
    if (!runtime.some((f) => f === need || f.startsWith(need.replace(/\.\w+$/, '.')))) throw new Error(`package.mjs: ${siteDir} has no ${need}`);
  }
  const index = fs.readFileSync(path.join(siteDir, 'index.html'), 'utf8');
  const out = path.join(siteDir, 'scorm');
  fs.mkdirSync(out, { recursive: true });
  const written = [];
  for (const paper of lab.listPapers().filter((p) => p.story)) {
    const story = lab.stories().find((s) => s.id === paper.story);
    const title = `Attention Lab: ${paper.title} (guided story)`;
    const description = describe(story, paper);
    for (const [version, suffix, manifest] of [['1.2', 'scorm12', manifest12], ['2004', 'scorm2004', manifest2004]]) {
      const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-scorm-'));
      for (const f of runtime) fs.copyFileSync(path.join(siteDir, f), path.join(stage, f));
      fs.copyFileSync(path.join(here, 'scorm_adapter.js'), path.join(stage, 'scorm_adapter.js'));
      fs.writeFileSync(path.join(stage, 'launch.html'), launchPage(index, story.id, version));
      const files = ['launch.html', 'scorm_adapter.js', ...runtime];
      fs.writeFileSync(path.join(stage, 'imsmanifest.xml'), manifest(story.id, title, description, files));
      const zip = path.resolve(out, `attnlab-story-${story.id}-${suffix}.zip`);
      fs.rmSync(zip, { force: true });
      // python3's zipfile (Debian's python3, scripts/setup.sh): the manifest at the zip's root.
      execFileSync('python3', ['-m', 'zipfile', '-c', zip, 'imsmanifest.xml', ...files], { cwd: stage });
      fs.rmSync(stage, { recursive: true, force: true });
      written.push(path.basename(zip));
    }
  }
  console.log(`SCORM: ${written.length} packages in ${out}/ (${written.join(', ')})`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
