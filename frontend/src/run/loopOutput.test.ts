import { describe, expect, it } from 'vitest';
import { iterationId, loopOutput, sourceWords } from './loopOutput';
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
