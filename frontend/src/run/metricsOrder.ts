// Step ids in the order the server's metrics use (runtime/runs/query.py, _in_reading_order): a top-level
// step, then what ran inside it, its items and rounds in numeric order: `each`, `each[2]`, `each[10]`, never `each[10]` before `each[2]`.

/** Text and numbers by turns (`each[10].draft` → `each[`, 10, `].draft`): text at even places, numbers at odd. */
function parts(id: string): (string | number)[] {
  return id.split(/(\d+)/).map((part, i) => (i % 2 ? Number(part) : part));
}

function compareParts(a: string, b: string): number {
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    if (order) return order;
  }
  return pa.length - pb.length;
}

/** The top-level step an id belongs to: `refine.2.draft`, `each[3]` and the live view's `refine/draft` run inside `refine` and `each`. */
function topOf(id: string): string {
  const end = id.search(/[./[]/);
  return end < 0 ? id : id.slice(0, end);
}

/** Sorts step ids grouped by their top-level step, the step itself first, numbers by value. */
export function compareStepIds(a: string, b: string): number {
  const ta = topOf(a);
  const tb = topOf(b);
  return compareParts(ta, tb) || compareParts(a.slice(ta.length), b.slice(tb.length)) || (a < b ? -1 : a > b ? 1 : 0);
}
