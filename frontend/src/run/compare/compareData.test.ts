import { describe, expect, it } from 'vitest';
import { differenceWords, DIFF_CHARS, outputText, rowLabel, verdictWords, wordDiff, type Unit } from './compareData';

const unit = (over: Partial<Unit> = {}): Unit => ({
  status: 'completed', output: null, result: null, done: null, reason: null, tokens: 0, cost_usd: 0, duration_ms: null, item: null, ...over,
});

describe('rows of a run comparison', () => {
  it('reads ids as rounds, items and includes, 1-based', () => {
    expect(rowLabel({ key: 'dev.1.draft', where: { loop: 'dev', iteration: 1, inner: 'draft' } })).toBe('dev · round 2 · draft');
    expect(rowLabel({ key: 'each[3]', where: { loop: 'each', item: 3 } })).toBe('each · item 4');
    expect(rowLabel({ key: 'deploy.build', where: { include: 'deploy', inner: 'build' } })).toBe('deploy › build');
    expect(rowLabel({ key: 'plan', where: {} })).toBe('plan');
  });

  it('says what differs in words', () => {
    expect(differenceWords(['done'])).toBe('judge verdict differs');
    expect(differenceWords(['status', 'output', 'done'])).toBe('status, output and judge verdict differ');
    expect(differenceWords(['missing'])).toBe('only one run got here');
  });

  it('diffs outputs word by word and marks what each side alone has', () => {
    const { segments, cut } = wordDiff('the quick fox', 'the slow fox');
    expect(cut).toBe(false);
    expect(segments.filter((s) => s.kind === 'removed').map((s) => s.text.trim())).toEqual(['quick']);
    expect(segments.filter((s) => s.kind === 'added').map((s) => s.text.trim())).toEqual(['slow']);
    expect(segments.map((s) => (s.kind === 'added' ? '' : s.text)).join('')).toBe('the quick fox');
  });

  it('compares only the start of very long outputs, and says so', () => {
    const long = 'word '.repeat(DIFF_CHARS);
    const { cut, segments } = wordDiff(long, long + 'more');
    expect(cut).toBe(true);
    expect(segments.every((s) => s.kind === 'same')).toBe(true);
  });

  it('shows verdicts as words and structured results as JSON', () => {
    expect(verdictWords(unit({ done: true }))).toBe('done');
    expect(verdictWords(unit({ done: false }))).toBe('not done');
    expect(verdictWords(unit())).toBeNull();
    expect(outputText(unit({ result: { score: 3 } }))).toBe('{\n  "score": 3\n}');
    expect(outputText(null)).toBe('');
  });
});
