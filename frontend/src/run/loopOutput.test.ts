import { describe, expect, it } from 'vitest';
import { CUMULATIVE_SEPARATOR, iterationId, loopOutput, sourceWords } from './loopOutput';
import type { IterationRun, LoopRun } from './reduce';

const it_ = (iteration: number, content: string | undefined, status: IterationRun['status'] = 'completed'): IterationRun => ({ iteration, status, content, steps: {} });

describe('loopOutput', () => {
  const loop: LoopRun = { iterations: [it_(0, 'first'), it_(1, 'second'), it_(2, undefined, 'running')] };

  it('hands on the latest finished iteration, or all of them joined', () => {
    expect(loopOutput(loop, 'last')).toBe('second');
    expect(loopOutput(loop, 'cumulative')).toBe(`first${CUMULATIVE_SEPARATOR}second`);
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
