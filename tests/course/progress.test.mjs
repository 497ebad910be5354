// The course bridge's arithmetic (www/course/progress.js): completion, score, and the resume
// texts in suspend_data. Run by `make test` (node --test tests/course/).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { completion, packResume, readRules, score, unpackResume } from '../../www/course/progress.js';

const shipped = JSON.parse(readFileSync(new URL('../../www/course/rules.json', import.meta.url), 'utf8'));
const { rules } = readRules(shipped);
/** What the lesson reports before the laboratory has kept a record of the challenges. */
const lessonOnly = (tabs, graded, knew) => ({
  'tabs-opened': [tabs, 4],
  'cards-graded': [graded, 12],
  'cards-knew': [knew, 12],
});
const tallies = (tabs, graded, knew, solved = 8) => ({
  ...lessonOnly(tabs, graded, knew),
  'challenges-solved': [solved, 8],
  'challenges-required': [solved, 8],
});

test('the shipped rules complete the course once every tab is opened, every card graded and every required challenge solved', () => {
  assert.ok(rules);
  assert.deepEqual(completion(tallies(4, 12, 3), rules.completion), { complete: true, measure: 1 });
  assert.deepEqual(completion(tallies(4, 11, 11), rules.completion), { complete: false, measure: (1 + 11 / 12 + 1) / 3 });
  assert.deepEqual(completion(tallies(2, 12, 12), rules.completion), { complete: false, measure: (0.5 + 1 + 1) / 3 });
  assert.deepEqual(completion(tallies(4, 12, 12, 6), rules.completion), { complete: false, measure: (1 + 1 + 6 / 8) / 3 });
  // Before the laboratory has saved any record, the challenges are not reported: not complete.
  assert.equal(completion(lessonOnly(4, 12, 12), rules.completion).complete, false);
});

test('the shipped rules score a point for each card the learner knew and each challenge solved', () => {
  assert.deepEqual(score(tallies(4, 12, 9, 5), rules.score), { raw: 14, min: 0, max: 20 });
});

test('an author can ask for a count, and for a tally the page does not report yet', () => {
  const required = { 'cards-graded': 6, 'challenges-solved': 'all' };
  assert.deepEqual(completion(lessonOnly(0, 6, 0), { 'cards-graded': 6 }), { complete: true, measure: 1 });
  // Not met until the page reports it: a rule never completes a course by accident.
  assert.equal(completion(lessonOnly(4, 12, 12), required).complete, false);
  const more = { ...lessonOnly(4, 12, 12), 'challenges-solved': [3, 3] };
  assert.equal(completion(more, required).complete, true);
  assert.deepEqual(score(more, { 'cards-knew': 1, 'challenges-solved': 4 }), { raw: 24, min: 0, max: 24 });
});

test('rules an author got wrong are refused with the reason', () => {
  assert.match(readRules({ score: {} }).problem, /completion/);
  assert.match(readRules({ completion: { 'tabs-opened': 'most' }, score: {} }).problem, /tabs-opened/);
  assert.match(readRules({ completion: {}, score: { 'cards-knew': -1 } }).problem, /cards-knew/);
});

test('resume texts round-trip, and the last ones go first when they do not fit', () => {
  const parts = [['tabs', 'gist,maps'], ['grades', 'a=k,b=r'], ['lab', `preset=2&py=${'A'.repeat(5000)}`]];
  const roomy = packResume(parts, 64000);
  assert.deepEqual({ ...unpackResume(roomy, 64000) }, Object.fromEntries(parts));
  const tight = packResume(parts, 4096);
  assert.ok(tight.length <= 4096);
  assert.deepEqual({ ...unpackResume(tight, 4096) }, { tabs: 'gist,maps', grades: 'a=k,b=r' });
});

test('suspend_data this bridge did not write is refused, and an empty one is a first launch', () => {
  assert.deepEqual({ ...unpackResume('', 4096) }, {});
  for (const garbage of ['{', 'null', '[1]', '{"v":2}', '{"v":1,"tabs":3}', 'x'.repeat(10)]) {
    assert.equal(unpackResume(garbage, 4096), null, garbage);
  }
  assert.equal(unpackResume(JSON.stringify({ v: 1, tabs: 'x'.repeat(5000) }), 4096), null);
  assert.equal(Object.getPrototypeOf(unpackResume('{"v":1,"__proto__":"x"}', 4096)), null);
});
