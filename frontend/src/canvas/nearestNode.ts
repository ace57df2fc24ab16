// Moving keyboard focus between drawn nodes with the arrow keys.

export const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** The drawn node nearest to `from` in direction (dx, dy): distance along it, sideways drift counting double. */
export function nearestNode(from: HTMLElement, [dx, dy]: [number, number]): HTMLElement | null {
  const center = (el: HTMLElement) => {
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  };
  const here = center(from);
  let best: HTMLElement | null = null;
  let bestScore = Infinity;
  const root = from.closest('.react-flow');
  root?.querySelectorAll<HTMLElement>('.react-flow__node').forEach((el) => {
    if (el === from) return;
    const c = center(el);
    const along = (c.x - here.x) * dx + (c.y - here.y) * dy;
    if (along <= 1) return;
    const side = Math.abs((c.x - here.x) * dy) + Math.abs((c.y - here.y) * dx);
    const score = along + 2 * side;
    if (score < bestScore) {
      bestScore = score;
      best = el;
    }
  });
  return best;
}
