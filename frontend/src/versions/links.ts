// Addresses of the version pages, in one place for the list, the editor and the compare page.

export function compareUrl(workflowId: number, a?: number, b?: number): string {
  const q = [a !== undefined ? `a=${a}` : '', b !== undefined ? `b=${b}` : ''].filter(Boolean).join('&');
  return `/workflows/${workflowId}/compare${q ? `?${q}` : ''}`;
}

export function versionUrl(workflowId: number, version: number): string {
  return `/workflows/${workflowId}?version=${version}`;
}

/** `?a=&b=` as version numbers (null where missing or not a whole number above 0). */
export function readPair(search: string): { a: number | null; b: number | null } {
  const params = new URLSearchParams(search);
  const num = (name: string) => {
    const raw = params.get(name);
    if (raw === null || !/^\d{1,9}$/.test(raw)) return null;
    const n = Number(raw);
    return n >= 1 ? n : null;
  };
  return { a: num('a'), b: num('b') };
}

export interface Pair {
  a: number;
  b: number;
  /** Why the address's choice was not used ('' when it was). */
  note: string;
}

/**
 * The two versions to compare: the address's when both exist, else the one before the latest
 * against the latest. `numbers` are the workflow's versions, any order; null with fewer than two.
 */
export function choosePair(numbers: readonly number[], asked: { a: number | null; b: number | null }): Pair | null {
  if (numbers.length < 2) return null;
  const sorted = [...numbers].sort((x, y) => x - y);
  const latest = sorted[sorted.length - 1];
  const before = sorted[sorted.length - 2];
  const has = (n: number | null): n is number => n !== null && sorted.includes(n);
  const missing = [asked.a, asked.b].filter((n): n is number => n !== null && !sorted.includes(n));
  const note = missing.length ? `There is no version ${missing.join(' or ')} (versions ${sorted[0]} to ${latest}): showing the latest change instead.` : '';
  if (has(asked.a) && has(asked.b)) return { a: asked.a, b: asked.b, note };
  if (has(asked.a) && asked.b === null) return { a: asked.a, b: asked.a === latest ? before : latest, note };
  if (has(asked.b) && asked.a === null) {
    const prev = sorted.filter((n) => n < asked.b!).pop();
    return { a: prev ?? sorted[1], b: asked.b, note };
  }
  return { a: before, b: latest, note };
}
