// Time to the first frame of the page, from localhost, in headless Chromium (software WebGL):
// navigation start to the page's "attnlab-first-frame" mark, median of 5 cold loads.
// usage: node bench/first_frame.mjs DIR   (NODE_PATH must contain playwright-core)
import path from 'node:path';
import { serveDirectory } from '../web/e2e/static_server.mjs';
import { launchChromium } from '../web/e2e/browser.mjs';

const dir = path.resolve(process.argv[2] || 'dist');
const server = await serveDirectory(dir);
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await launchChromium();
const times = [];
for (let i = 0; i < 5; ++i) {
  const context = await browser.newContext();  // a fresh cache each time: a cold load
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('attnlab-first-frame').length > 0, null,
    { timeout: 30000 });
  times.push(await page.evaluate(() => performance.getEntriesByName('attnlab-first-frame')[0].startTime));
  await context.close();
}
await browser.close();
server.close();
times.sort((a, b) => a - b);
console.log(`first frame from ${url}: median ${times[2].toFixed(0)} ms (of ${times.map((t) => t.toFixed(0)).join(', ')})`);
