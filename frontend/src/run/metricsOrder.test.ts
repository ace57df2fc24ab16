import { describe, expect, it } from 'vitest';
import { compareStepIds } from './metricsOrder';

const sorted = (ids: string[]) => [...ids].sort(compareStepIds);

describe('step ids in metrics order', () => {
  it("puts a forEach loop's items after it, by number", () => {
    expect(sorted(['each[10]', 'each[2]', 'each', 'each[0]'])).toEqual(['each', 'each[0]', 'each[2]', 'each[10]']);
  });

  it("puts a repeat loop's rounds by number, each round's inner steps and judge together", () => {
    expect(sorted(['refine.10.draft', 'refine.2.untilAgent', 'refine', 'refine.2.draft', 'refine.1.critic'])).toEqual([
      'refine',
      'refine.1.critic',
      'refine.2.draft',
      'refine.2.untilAgent',
      'refine.10.draft',
    ]);
  });

  it("keeps a loop's items with it even when another step's id starts the same", () => {
    expect(sorted(['each[1]', 'each2', 'each', 'each[0]'])).toEqual(['each', 'each[0]', 'each[1]', 'each2']);
  });

  it("keeps the live view's inner steps (`loop/inner`) with their loop", () => {
    expect(sorted(['each2', 'refine/draft', 'each/inner', 'refine', 'each'])).toEqual(['each', 'each/inner', 'each2', 'refine', 'refine/draft']);
  });

  it('orders top-level steps by name, numbers in them by value', () => {
    expect(sorted(['publish', 'step10', 'draft', 'step2'])).toEqual(['draft', 'publish', 'step2', 'step10']);
  });
});
