// Writes the site's oEmbed files (https://oembed.com) into a built site folder, so that course
// sites which turn pasted links into embeds (WordPress, Moodle filters) show the lab:
//   oembed/lab.json                      the start page (the discovery link this adds to index.html)
//   oembed/story-ID.json, story-ID-N.json a story from its first step, and from each step N
//   oembed/EXPERIMENT-PRESET.json        every preset of every experiment
//   embed/<same name>.html               the link to paste: it names its oEmbed file in a
//                                        <link rel="alternate" type="application/json+oembed">
//                                        and sends a visitor on to the lab at that state
// Everything is enumerated from the registry through the JS API (no hand list); the JSON itself
// comes from the core (lab/embed_snippet.hpp: oembedJson). Hash links cannot carry their own
// discovery link (a server never sees the part after '#'), hence one small page per state.
//
// usage: node scripts/oembed.mjs SITE_DIR BASE_URL [NODE_MODULE]
//   SITE_DIR     the built site (index.html, attnlab-api.mjs, ...), e.g. dist
//   BASE_URL     the absolute address the site is served at, ending in '/', e.g. https://host/attnlab/
//   NODE_MODULE  the node build of the module (default build/wasm/attnlab_node.cjs)
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const [siteDir, base, modulePath = 'build/wasm/attnlab_node.cjs'] = process.argv.slice(2);
if (!siteDir || !base) {
  console.error('usage: node scripts/oembed.mjs SITE_DIR BASE_URL [NODE_MODULE]');
  process.exit(2);
}
if (!/^https?:\/\/[^#?]+\/$/.test(base)) {
  console.error(`oembed.mjs: BASE_URL '${base}' is not allowed; allowed: an absolute http(s) address ending in '/'`);
  process.exit(2);
}
const { createAttnLab } = await import(pathToFileURL(path.resolve(siteDir, 'attnlab-api.mjs')).href);
const lab = await createAttnLab({ factory: require(path.resolve(modulePath)) });
const { width: WIDTH, height: HEIGHT } = JSON.parse(lab.module.embedDefaultSize());

const html = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
fs.mkdirSync(path.join(siteDir, 'oembed'), { recursive: true });
fs.mkdirSync(path.join(siteDir, 'embed'), { recursive: true });
let written = 0;

// One state of the lab: its oEmbed JSON (the embed) and its page to paste (discovery + redirect).
function write(name, hash, title) {
  const json = lab.module.oembedJson(base, hash ? hash + '&embed=1' : '', title, WIDTH, HEIGHT);
  JSON.parse(json);  // well-formed, or this throws
  fs.writeFileSync(path.join(siteDir, 'oembed', name + '.json'), json + '\n');
  const target = '../' + (hash ? '#' + hash : '');
  fs.writeFileSync(path.join(siteDir, 'embed', name + '.html'), `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Attention Lab: ${html(title)}</title>
<link rel="alternate" type="application/json+oembed" href="${html(base + 'oembed/' + name + '.json')}" title="${html(title)}">
<link rel="canonical" href="${html(base + (hash ? '#' + hash : ''))}">
<meta http-equiv="refresh" content="0; url=${html(target)}">
</head>
<body><p><a href="${html(target)}">${html(title)}: open it in Attention Lab</a></p>
<script>location.replace(${JSON.stringify(target)});</script></body>
</html>
`);
  written += 1;
}

// The papers' titles come from the lab's one declaration of its papers (listPapers()).
const papers = lab.listPapers();
write('lab', '', 'Papers on the theory of attention, as live experiments');
for (const paper of papers.filter((p) => p.story)) {
  const story = lab.stories().find((s) => s.id === paper.story);
  write(`story-${story.id}`, story.steps[0].link, `${paper.title} (guided story)`);
  story.steps.forEach((step, k) => write(`story-${story.id}-${k + 1}`, step.link, `${paper.title}, step ${k + 1}: ${step.title}`));
}
for (const { id } of lab.list())
  for (const preset of lab.presets(id)) write(`${id}-${preset.name}`, `exp=${id}&preset=${preset.name}`, preset.title);

// The page's own discovery link, absolute (consumers do not resolve relative ones). The page has
// none until its oEmbed files exist (web/shell.html advertises nothing that is not there); written
// again, it is replaced.
const index = path.join(siteDir, 'index.html');
const page = fs.readFileSync(index, 'utf8').replace(/<link rel="alternate" type="application\/json\+oembed"[^>]*>\n?/, '');
const link = `<link rel="alternate" type="application/json+oembed" href="${html(base + 'oembed/lab.json')}" title="Attention Lab">\n`;
if (!/<\/title>\n/.test(page)) throw new Error(`${index} has no <title> to put the oEmbed discovery link after`);
fs.writeFileSync(index, page.replace(/<\/title>\n/, (t) => t + link));
console.log(`oEmbed: ${written} states in ${siteDir}/oembed/ and ${siteDir}/embed/, served from ${base}`);
