// Predictions kept (docs/design.md "Predictions kept"): the student's prediction for a story step
// is in the address (predict=), a reload restores it, the JSON download says it, and a course
// page's resume sets it through appSetPrediction. Env: see browser.mjs.
import test from 'node:test';
import assert from 'node:assert';
import { openUrl, useBrowser } from './browser.mjs';

const env = useBrowser();
const pageJson = (page) => page.evaluate(() => JSON.parse(window.attnlab.appPageJson()));

test('a reload keeps the story step\'s prediction; the JSON download and the resume hook carry it', async () => {
  const { page, errors } = await openUrl(env.browser, env.base + '#story=separation&step=1');
  let story = (await pageJson(page)).story;
  assert.strictEqual(story.prediction.predicted, null);
  assert.notStrictEqual((await pageJson(page)).runBlocked, '', 'Run waits for the prediction');
  assert.strictEqual(await page.evaluate(() => window.attnlab.appPredict(1)), '');
  await page.waitForFunction(() => window.location.hash.includes('predict=2'), null, { timeout: 10000 });
  assert.strictEqual(await page.evaluate(() => window.location.hash), '#story=separation&step=1&predict=2');

  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30000 });
  story = (await pageJson(page)).story;
  assert.strictEqual(story.step, 1);
  assert.strictEqual(story.prediction.predicted, 1, 'the reload restored the prediction');
  assert.strictEqual(story.prediction.predictedText, story.prediction.choices[1]);
  assert.strictEqual((await pageJson(page)).runBlocked, '', 'Run no longer waits');
  // The twin shows it: its radio is checked and the prediction is said in words.
  await page.evaluate(() => window.attnlab.appSetTextView(true));
  await page.waitForSelector('#twin-choice-1:checked', { timeout: 10000 });
  assert.strictEqual(await page.textContent('#twin-predicted'), `Your prediction: ${story.prediction.choices[1]}`);

  // The resume hook: only the step on screen; the address follows.
  assert.match(await page.evaluate(() => window.attnlab.appSetPrediction('separation', 2, 0)), /is not on screen; on screen: step 1 of story 'separation'/);
  assert.strictEqual(await page.evaluate(() => window.attnlab.appSetPrediction('separation', 1, 0)), '');
  assert.strictEqual((await pageJson(page)).story.prediction.predicted, 0);
  await page.waitForFunction(() => window.location.hash.includes('predict=1'), null, { timeout: 10000 });

  // The run's JSON download names the step and the prediction.
  await page.evaluate(() => window.attnlab.appRun());
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 120000 });
  // Beside the answer the twin no longer says that it is to come.
  await page.waitForSelector('#twin-answer', { timeout: 10000 });
  assert.ok(!(await page.textContent('#twin')).includes('The answer shows once the run is done.'),
    'the twin still says the answer is to come beside the answer');
  const record = JSON.parse(await page.evaluate(() => window.attnlab.appJson()));
  assert.strictEqual(record.context.story, 'separation');
  assert.strictEqual(record.context.story_step, '1');
  assert.strictEqual(record.context.prediction, story.prediction.choices[0]);
  assert.match(record.context.measured, /Answer: /);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('after a changed setting the answer says so and offers the step\'s settings back, the prediction kept', async () => {
  const { page, errors } = await openUrl(env.browser, env.base + '#story=regression&step=4');
  assert.strictEqual(await page.evaluate(() => window.attnlab.appPredict(0)), '');
  assert.strictEqual(await page.evaluate(() => window.attnlab.appSetParam('w', '3')), '');
  await page.evaluate(() => window.attnlab.appRun());
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 120000 });
  let story = (await pageJson(page)).story;
  assert.match(story.answer, /^You changed weight w from 12 to 3/);  // the control's label
  assert.strictEqual(story.changed, true);
  // The twin offers the step's settings back beside the answer; pressing it reopens the step at w = 12.
  await page.evaluate(() => window.attnlab.appSetTextView(true));
  await page.waitForSelector('[data-act="stepsettings"]', { timeout: 10000 });
  assert.ok(!(await page.textContent('#twin')).includes('The answer shows once the run is done.'),
    'the twin still says the answer is to come beside the answer');
  await page.click('[data-act="stepsettings"]');
  await page.waitForFunction(() => !window.location.hash.includes('w=3'), null, { timeout: 10000 });
  story = (await pageJson(page)).story;
  assert.strictEqual(story.changed, false);
  assert.strictEqual(story.answer, '', 'a new run is needed for the step\'s answer');
  assert.strictEqual(story.prediction.predicted, 0, 'the prediction is kept');
  assert.strictEqual(await page.locator('[data-act="stepsettings"]').count(), 0);
  assert.strictEqual(await page.evaluate(() => window.attnlab.appUseStepSettings()), '');
  assert.deepStrictEqual(errors, []);
  await page.close();
});
