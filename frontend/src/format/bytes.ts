/** A size as people read it: "820 B", "3.4 kB", "34 kB", "1.2 MB" (1 kB = 1000 bytes, as file managers show). */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '';
  if (n < 1000) return `${Math.round(n)} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n / 1000;
  let u = 0;
  while (v >= 999.5 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${v < 9.95 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}
