// Moving keyboard focus between drawn nodes with the arrow keys.

export const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

const center = (b: Box) => ({ x: b.left + b.width / 2, y: b.top + b.height / 2 });

/** Whether `outer` holds all of `inner`: a loop around its inner step. */
function holds(outer: Box, inner: Box): boolean {
  return outer.left <= inner.left && outer.top <= inner.top && outer.left + outer.width >= inner.left + inner.width && outer.top + outer.height >= inner.top + inner.height;
}

/**
 * The index of the box nearest to `from` in direction (dx, dy): distance along it, sideways drift
 * counting double; -1 for none. A box holding `from` (the loop an inner step sits in) is never next:
 * its centre may lie just past the step, but the next step is what the key means.
 */
export function nearestIndex(from: Box, boxes: readonly Box[], [dx, dy]: [number, number]): number {
  const here = center(from);
  let best = -1;
  let bestScore = Infinity;
  boxes.forEach((box, i) => {
    if (holds(box, from)) return;
    const c = center(box);
    const along = (c.x - here.x) * dx + (c.y - here.y) * dy;
    if (along <= 1) return;
    const side = Math.abs((c.x - here.x) * dy) + Math.abs((c.y - here.y) * dx);
    const score = along + 2 * side;
    if (score < bestScore) {
      bestScore = score;
      best = i;
    }
  });
  return best;
}

/** The drawn node nearest to `from` in direction (dx, dy) (see nearestIndex). */
export function nearestNode(from: HTMLElement, direction: [number, number]): HTMLElement | null {
  const root = from.closest('.react-flow');
  const others = Array.from(root?.querySelectorAll<HTMLElement>('.react-flow__node') ?? []).filter((el) => el !== from);
  const i = nearestIndex(from.getBoundingClientRect(), others.map((el) => el.getBoundingClientRect()), direction);
  return i < 0 ? null : others[i];
}
