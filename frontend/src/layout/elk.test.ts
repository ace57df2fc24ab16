import { describe, expect, it } from 'vitest';
import { documentToGraph } from '../graph/mapping';
import { stepNodeHeight } from '../graph/nodeSize';
import { autoLayout, elkGraph } from './elk';
import type { WorkflowDoc } from '../doc/types';

const doc: WorkflowDoc = {
  name: 'chips',
  steps: [
    { id: 'plain', instructions: 'Write.' },
    {
      id: 'guarded',
      instructions: 'Write carefully, then check the draft against the outline twice.',
      condition: "steps.plain.status == 'completed' && size(steps.plain.content) > 10",
      timeout: '10m',
      retries: 2,
    },
    { id: 'third', instructions: 'Publish.' },
  ],
};

describe('auto-layout sizes', () => {
  it('gives a step with chips a larger height than a plain one', () => {
    const plain = stepNodeHeight({ id: 'a', instructions: 'Write.' }, 'step');
    const chips = stepNodeHeight({ id: 'b', instructions: 'Write.', timeout: '10m', retries: 2 }, 'step');
    const wrapped = stepNodeHeight({ id: 'c', instructions: 'Write.', timeout: '10m', retries: 2, condition: "steps.a.status == 'completed'" }, 'step');
    expect(chips).toBeGreaterThan(plain);
    expect(wrapped).toBeGreaterThan(chips); // the condition chip takes a row of its own
  });

  it('hands elk the height each node is drawn at', () => {
    const root = elkGraph(documentToGraph(doc, null));
    const h = Object.fromEntries((root.children ?? []).map((n) => [n.id, n.height]));
    expect(h.guarded).toBeGreaterThan(h.plain as number);
    expect(h.guarded).toBe(stepNodeHeight(doc.steps![1] as never, 'step'));
  });

  it('prefers measured sizes when the canvas has them', () => {
    const root = elkGraph(documentToGraph(doc, null), new Map([['plain', { width: 240, height: 180 }]]));
    expect(root.children?.find((n) => n.id === 'plain')?.height).toBe(180);
  });

  it('lays out steps without overlap', async () => {
    const layout = await autoLayout(documentToGraph(doc, null));
    const root = elkGraph(documentToGraph(doc, null));
    const boxes = (root.children ?? []).map((n) => ({ ...layout.positions[n.id], w: n.width as number, h: n.height as number }));
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i];
        const b = boxes[j];
        const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
        expect(overlap).toBe(false);
      }
  });
});
