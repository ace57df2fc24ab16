import { costText } from './cost';

/** ` · $0.0123` after other figures (or the bare amount in a table cell); an estimate for simulated runs. */
export function CostFigure({ cost, provider, bare = false }: { cost: number | null | undefined; provider: string | null | undefined; bare?: boolean }) {
  const c = costText(cost, provider);
  if (!c) return null;
  return (
    <span className="cost" title={c.title} data-testid="run-cost">
      {bare ? c.text : ` · ${c.text}`}
    </span>
  );
}
