import { useMemo, useState } from 'react';
import { yaml as yamlLang } from '@codemirror/lang-yaml';
import { stringify } from 'yaml';
import { errorText, type StartRunBody } from '../api/client';
import type { Budgets } from '../api/types';
import { CodeEditor } from '../components/CodeEditor';
import { isObject, type WorkflowDoc } from '../doc/types';
import { EMPTY_POLICIES, loopIdsOf, PoliciesForm, policiesForRequest, type RunPolicies } from '../run/PoliciesForm';

/** A placeholder value of a JSON Schema: enough for a simulated reply's `result`. */
export function sampleOf(schema: unknown, depth = 0): unknown {
  if (!isObject(schema) || depth > 6) return null;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = isObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
      for (const name of required) out[name] = sampleOf(props[name], depth + 1);
      return out;
    }
    case 'array':
      // One item, so that a forEach over it has something to show.
      return schema.maxItems === 0 ? [] : [sampleOf(schema.items, depth + 1)];
    case 'string':
      return 'sample';
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/**
 * A starter script for the simulated provider: every agent replies; agents
 * with a resultSchema submit a placeholder result; judges say "not yet", then "done".
 */
export function starterScript(doc: WorkflowDoc): string {
  const replies: Record<string, unknown> = { '*': ['Done. Here is my work for this step.'] };
  const judges = new Set<string>();
  const walk = (steps: unknown) => {
    if (!Array.isArray(steps)) return;
    for (const s of steps) {
      if (!isObject(s)) continue;
      if (isObject(s.loop) && typeof s.loop.untilAgent === 'string') judges.add(s.loop.untilAgent);
      if (isObject(s.loop)) walk(s.loop.steps);
    }
  };
  walk(doc.steps);
  const agents = isObject(doc.agents) ? doc.agents : {};
  for (const [name, agent] of Object.entries(agents)) {
    if (judges.has(name) || !isObject(agent) || !isObject(agent.resultSchema)) continue;
    replies[name] = [{ content: `Result from ${name}.`, result: sampleOf(agent.resultSchema) }];
  }
  for (const j of judges) {
    replies[j] = [
      { content: 'Not there yet.', result: { done: false, reason: 'needs another pass' } },
      { content: 'Good enough.', result: { done: true, reason: 'all checks pass' } },
    ];
  }
  return stringify({ latency: 0.2, replies });
}

export function RunDialog({
  doc,
  onClose,
  onStart,
}: {
  doc: WorkflowDoc;
  onClose: () => void;
  onStart: (body: Omit<StartRunBody, 'workflow_id'>) => Promise<void>;
}) {
  const [provider, setProvider] = useState<StartRunBody['provider']>('simulated');
  const [model, setModel] = useState('');
  const [script, setScript] = useState(() => starterScript(doc));
  const [budgets, setBudgets] = useState<Record<keyof Budgets, string>>({ max_tokens: '', max_cost_usd: '', max_duration_s: '600', max_steps: '' });
  const [policies, setPolicies] = useState<RunPolicies>(EMPTY_POLICIES);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const extensions = useMemo(() => [yamlLang()], []);

  const start = async () => {
    setBusy(true);
    setError(null);
    const b: Budgets = {};
    for (const [k, v] of Object.entries(budgets) as [keyof Budgets, string][]) {
      if (v.trim() === '') continue;
      const n = Number(v);
      if (!Number.isFinite(n) || n < 0) {
        setError(`${k.replace(/_/g, ' ')}: type a positive number.`);
        setBusy(false);
        return;
      }
      b[k] = n;
    }
    try {
      await onStart({
        provider,
        model: model.trim() || undefined,
        script: provider === 'simulated' && script.trim() ? script : undefined,
        budgets: Object.keys(b).length ? b : undefined,
        policies: policiesForRequest(policies),
      });
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal modal-wide" role="dialog" aria-label="Start a run">
        <header className="modal-head">
          <h3>Start a run</h3>
          <button className="icon-btn" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </header>
        <div className="grid2">
          <label className="field">
            <span className="field-label">Provider</span>
            <select className="input" value={provider} onChange={(e) => setProvider(e.target.value as StartRunBody['provider'])} data-testid="run-provider">
              <option value="simulated">Simulated (scripted replies, no cost)</option>
              <option value="openai">OpenAI</option>
              <option value="anthropic">Anthropic</option>
            </select>
          </label>
          <label className="field">
            <span className="field-label">Model (optional)</span>
            <input className="input mono" value={model} onChange={(e) => setModel(e.target.value)} placeholder="agent or provider default" />
          </label>
        </div>
        {provider === 'simulated' && (
          <div className="field">
            <span className="field-label">Script</span>
            <div className="field-help">
              What each agent replies, in order, keyed by step id, agent name or <code>*</code>. A judge reply sets <code>result: {'{done, reason}'}</code>.
            </div>
            <CodeEditor value={script} onChange={setScript} extensions={extensions} lineNumbers className="cm-script" ariaLabel="Simulation script" testId="run-script" />
            <button className="btn small ghost" onClick={() => setScript(starterScript(doc))}>
              Reset to the starter script
            </button>
          </div>
        )}
        <div className="field">
          <span className="field-label">Budgets (empty = no limit)</span>
          <div className="grid4">
            {(
              [
                ['max_tokens', 'Max tokens'],
                ['max_cost_usd', 'Max cost (USD)'],
                ['max_duration_s', 'Max duration (s)'],
                ['max_steps', 'Max steps'],
              ] as [keyof Budgets, string][]
            ).map(([k, label]) => (
              <label key={k} className="mini-field">
                <span className="muted small">{label}</span>
                <input className="input" inputMode="decimal" value={budgets[k]} onChange={(e) => setBudgets({ ...budgets, [k]: e.target.value })} />
              </label>
            ))}
          </div>
        </div>
        {loopIdsOf(doc).length > 0 && (
          <details className="run-advanced">
            <summary>Run policies (optional): extra stop rules and what a failed iteration does</summary>
            <PoliciesForm value={policies} onChange={setPolicies} loopIds={loopIdsOf(doc)} />
          </details>
        )}
        {error && (
          <div className="banner banner-error" role="alert">
            {error}
          </div>
        )}
        <footer className="modal-foot">
          <span className="muted small">Unsaved changes are saved as a new version first.</span>
          <span className="spacer" />
          <button className="btn ghost" onClick={onClose}>
            Cancel
          </button>
          <button className="btn primary" disabled={busy} onClick={() => void start()} data-testid="run-start">
            {busy ? 'Starting…' : 'Start run'}
          </button>
        </footer>
      </div>
    </div>
  );
}
