import { describe, expect, it } from 'vitest';
import { differenceWords, DIFF_CHARS, editedWords, figuresDiffer, forkStart, outputText, rowLabel, showsKey, verdictWords, wordDiff, type Unit } from './compareData';

const unit = (over: Partial<Unit> = {}): Unit => ({
  status: 'completed', output: null, result: null, done: null, reason: null, tokens: 0, cost_usd: 0, duration_ms: null, item: null, inherited: false, edited: [], pinned: false, ...over,
});

describe('rows of a run comparison', () => {
  it('reads ids as rounds, items and includes, 1-based', () => {
    expect(rowLabel({ key: 'dev.1.draft', where: { loop: 'dev', iteration: 1, inner: 'draft' } })).toBe('dev · round 2 · draft');
    expect(rowLabel({ key: 'each[3]', where: { loop: 'each', item: 3 } })).toBe('each · item 4');
    expect(rowLabel({ key: 'deploy.build', where: { include: 'deploy', inner: 'build' } })).toBe('deploy › build');
    expect(rowLabel({ key: 'plan', where: {} })).toBe('plan');
  });

  it('says what a person changed at a breakpoint, a context file by its path as written', () => {
    expect(editedWords(['previous_output', 'context_file:notes/my_notes.md'])).toBe('edited: previous output, context file notes/my_notes.md');
    expect(editedWords(['instructions', 'skipped'])).toBe('skipped at a breakpoint');
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
    expect(verdictWords(unit({ done: true }))).toBe('judge said done');
    expect(verdictWords(unit({ done: false }))).toBe('judge said not done');
    expect(verdictWords(unit())).toBeNull();
    expect(outputText(unit({ result: { score: 3 } }))).toBe('{\n  "score": 3\n}');
    expect(outputText(null)).toBe('');
  });
});

describe('a fork beside its parent', () => {
  const parent = { id: 'p', parent: null, fork_point: null };
  it('finds the fork and the row it began at, whichever side it is on', () => {
    const fork = { id: 'f', parent: 'p', fork_point: { step: 'write', iteration: 3, kind: 'round', seq: 40 } };
    expect(forkStart(parent, fork)).toEqual({ side: 'B', key: 'write.3' });
    expect(forkStart(fork, parent)).toEqual({ side: 'A', key: 'write.3' });
    expect(forkStart(parent, { id: 'g', parent: 'p', fork_point: { step: 'each', iteration: 1, kind: 'item', seq: 9 } })).toEqual({ side: 'B', key: 'each[1]' });
    expect(forkStart(parent, { id: 'h', parent: 'p', fork_point: { step: 'plan', kind: 'step', seq: 2 } })).toEqual({ side: 'B', key: 'plan' });
    expect(forkStart(parent, { id: 'x', parent: null, fork_point: null })).toBeNull();
  });

  it('never calls rows the same whose tokens or cost differ', () => {
    expect(figuresDiffer({ a: unit({ tokens: 10 }), b: unit({ tokens: 12 }), differs: [] })).toBe(true);
    expect(figuresDiffer({ a: unit({ tokens: 10 }), b: unit({ tokens: 10 }), differs: [] })).toBe(false);
    expect(figuresDiffer({ a: unit(), b: null, differs: ['missing'] })).toBe(false);
  });

  it('shows a row id beside its words only when they differ', () => {
    expect(showsKey({ key: 'dev.1', where: { loop: 'dev', iteration: 1 } })).toBe(true);
    expect(showsKey({ key: 'plan', where: {} })).toBe(false);
  });
});
