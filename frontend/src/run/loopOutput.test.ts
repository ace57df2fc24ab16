import { describe, expect, it } from 'vitest';
import { forEachRows, iterationId, loopOutput, sourceWords } from './loopOutput';
import type { IterationRun, LoopRun } from './reduce';

const it_ = (iteration: number, content: string | undefined, status: IterationRun['status'] = 'completed'): IterationRun => ({ iteration, status, content, steps: {} });

describe('loopOutput', () => {
  const loop: LoopRun = { iterations: [it_(0, 'first'), it_(1, 'second'), it_(2, undefined, 'running')] };

  it('hands on the latest finished iteration, or every one headed by its round', () => {
    expect(loopOutput(loop, 'last')).toBe('second');
    expect(loopOutput(loop, 'cumulative')).toBe('## Iteration 1\nfirst\n\n## Iteration 2\nsecond\n\n');
  });

  it("labels each inner step and adds the judge's feedback, as the engine writes it", () => {
    const step = (output: string) => ({ status: 'completed' as const, output });
    const rounds: LoopRun = {
      iterations: [
        { ...it_(0, 'CON_R1'), steps: { pro: step('PRO_R1'), con: step('CON_R1') }, verdict: { done: false, reason: 'no', failedOpen: false, content: 'sharper' } },
        { ...it_(1, 'CON_R2'), steps: { pro: step('PRO_R2'), con: step('CON_R2') }, verdict: { done: null, reason: null, failedOpen: true, content: 'ignored' } },
      ],
    };
    expect(loopOutput(rounds, 'cumulative')).toBe(
      '## Iteration 1\n### pro\nPRO_R1\n\n### con\nCON_R1\n\n## Judge Feedback (Iteration 1)\nsharper\n\n' +
        '## Iteration 2\n### pro\nPRO_R2\n\n### con\nCON_R2\n\n',
    );
  });

  it("takes the server's cumulative output once the loop has ended", () => {
    expect(loopOutput({ ...loop, cumulative: 'joined by the engine', ended: { reason: 'until', rounds: 2 } }, 'cumulative')).toBe('joined by the engine');
  });
});

describe('iteration words', () => {
  it('names the source steps and the format ids of iterations', () => {
    expect(sourceWords([])).toBe('');
    expect(sourceWords(['critic', 'draft'])).toBe(' of critic + draft');
    expect(iterationId('dev', it_(2, ''))).toBe('dev.2');
    expect(iterationId('each', { ...it_(1, ''), item: 'b' })).toBe('each[1]');
  });
});

describe('forEach output and result', () => {
  const item = (i: number, value: unknown, content: string | undefined, status: IterationRun['status'] = 'completed'): IterationRun => ({
    iteration: i,
    status,
    content,
    item: value as IterationRun['item'],
    steps: {},
  });
  const loop: LoopRun = { loopType: 'forEach', iterations: [item(1, { n: 2 }, 'two'), item(0, 'a', 'one'), item(2, 'c', undefined, 'failed')] };

  it('hands on the last item by index that completed, in either mode, as zenflow does', () => {
    expect(loopOutput(loop, 'cumulative')).toBe('two'); // item 2 failed; item 0 finished after item 1
    expect(loopOutput(loop, 'last')).toBe('two');
  });

  it('lists every item in order with its id, value, status and output, and counts what it leaves out', () => {
    const { rows, more } = forEachRows('batch', loop, 2);
    expect(rows).toEqual([
      { id: 'batch[0]', index: 0, item: 'a', status: 'completed', content: 'one' },
      { id: 'batch[1]', index: 1, item: '{"n":2}', status: 'completed', content: 'two' },
    ]);
    expect(more).toBe(1);
  });
});
