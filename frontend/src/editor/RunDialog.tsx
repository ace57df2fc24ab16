import { Modal } from '../components/Modal';
import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { yaml as yamlLang } from '@codemirror/lang-yaml';
import { stringify } from 'yaml';
import { ApiError, api, errorText, type StartRunBody } from '../api/client';
import type { Budgets, ProviderInfo, Run, WorkspaceUsage } from '../api/types';
import { onLinkClick } from '../router';
import { limitMessage, reserveLine, usageLine, usageParts } from '../workspaces/usage';
import { DEFAULT_BUDGETS, recalledRunSettings, rememberRunSettings, settingsFromRun, type RunSettings } from './runSettings';
import { CodeEditor } from '../components/CodeEditor';
import { isObject, type WorkflowDoc } from '../doc/types';
import { EMPTY_POLICIES, loopIdsOf, PoliciesForm, policiesForRequest, type RunPolicies } from '../run/PoliciesForm';
import { EMPTY_START, workspaceFields, type WorkspaceStart } from './runWorkspace';
import { RunWorkspaceSection } from './RunWorkspaceSection';

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
  workflowId,
  workspaceId = null,
  fromRunId,
  onClose,
  onStart,
}: {
  doc: WorkflowDoc;
  workflowId: number | null;
  /** The workflow's workspace: its keys and limits apply (null: the server's default, the personal one). */
  workspaceId?: number | null;
  /** "Edit and run": start from that run's settings. */
  fromRunId?: string | null;
  onClose: () => void;
  onStart: (body: Omit<StartRunBody, 'workflow_id'>) => Promise<void>;
}) {
  const recalled = fromRunId ? null : recalledRunSettings(workflowId);
  const [provider, setProvider] = useState<StartRunBody['provider']>(recalled?.provider ?? 'simulated');
  const [model, setModel] = useState(recalled?.model ?? '');
  const [script, setScript] = useState(() => recalled?.script || starterScript(doc));
  const [budgets, setBudgets] = useState<Record<keyof Budgets, string>>(recalled?.budgets ?? DEFAULT_BUDGETS);
  const [policies, setPolicies] = useState<RunPolicies>(recalled?.policies ?? EMPTY_POLICIES);
  // An upload or an earlier run belongs to this dialog only; the gated tools are remembered with the rest.
  const [workspaceStart, setWorkspaceStart] = useState<WorkspaceStart>(EMPTY_START);
  const [askBefore, setAskBefore] = useState<string[]>(recalled?.askBefore ?? []);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [providers, setProviders] = useState<ProviderInfo[] | null>(null);
  const [usage, setUsage] = useState<WorkspaceUsage | null>(null);
  const [from, setFrom] = useState<string | null>(recalled ? 'the settings you used last' : null);
  const touched = useRef(false);
  const extensions = useMemo(() => [yamlLang()], []);

  const apply = (s: RunSettings) => {
    setProvider(s.provider);
    setModel(s.model);
    if (s.script) setScript(s.script);
    setBudgets(s.budgets);
    setPolicies(s.policies);
    if (s.askBefore) setAskBefore(s.askBefore);
  };

  // The runs whose settings the dialog opens with: "Edit and run"'s run, else (when nothing is
  // remembered here) the workflow's latest run.
  const recentRuns = useEffectEvent((): Promise<Run[]> =>
    fromRunId
      ? api.getRun(fromRunId).then((r) => [r])
      : recalled || workflowId === null
        ? Promise.resolve([])
        : api.listRuns(workflowId),
  );
  const prefill = useEffectEvent((runs: Run[]) => {
    const latest = runs[0];
    if (!latest || touched.current) return;
    apply(settingsFromRun(latest));
    setFrom(fromRunId ? 'that run' : 'the latest run');
  });

  const workspaceNow = useEffectEvent(() => workspaceId);
  // Once, when the dialog opens: which providers have a key, what the workspace's limits leave, and the settings to start from.
  useEffect(() => {
    let live = true;
    const ws = workspaceNow();
    api.providers(ws).then((p) => live && setProviders(p), () => live && setProviders([]));
    if (ws) {
      api.usage(ws).then(
        (u) => live && setUsage(u),
        () => undefined, // no usage line: the start still says when a limit is reached
      );
    }
    recentRuns().then(
      (runs) => live && prefill(runs),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  // Remember what is typed, so that opening the dialog again finds it.
  useEffect(() => {
    rememberRunSettings(workflowId, { provider, model, script, budgets, policies, askBefore });
  }, [workflowId, provider, model, script, budgets, policies, askBefore]);

  // What was carried over that changes how the run behaves: said, never kept silently.
  const carried = [
    askBefore.length > 0 ? `asks before ${askBefore.join(', ')}` : null,
    Object.entries(budgets).some(([k, v]) => v !== DEFAULT_BUDGETS[k as keyof Budgets]) ? 'has its own budgets' : null,
    JSON.stringify(policies) !== JSON.stringify(EMPTY_POLICIES) ? 'has its own failure policies' : null,
  ].filter((x): x is string => x !== null);
  const startFromDefaults = () => {
    touched.current = true;
    setProvider('simulated');
    setModel('');
    setScript(starterScript(doc));
    setBudgets(DEFAULT_BUDGETS);
    setPolicies(EMPTY_POLICIES);
    setAskBefore([]);
    setFrom(null);
  };

  const chosen = providers?.find((p) => p.name === provider) ?? null;
  const missingKey = chosen !== null && chosen.needs_key && !chosen.ready;
  const touch = <T,>(set: (v: T) => void) => (v: T) => {
    touched.current = true;
    set(v);
  };

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
    const workspace = workspaceFields(workspaceStart, askBefore);
    if ('error' in workspace) {
      setError(workspace.error);
      setBusy(false);
      return;
    }
    try {
      await onStart({
        provider,
        model: model.trim() || undefined,
        script: provider === 'simulated' && script.trim() ? script : undefined,
        budgets: Object.keys(b).length ? b : undefined,
        policies: policiesForRequest(policies),
        ...workspace.fields,
      });
    } catch (e) {
      setError(e instanceof ApiError && e.status === 429 ? limitMessage(e.message, e.retryAfterSeconds) : errorText(e));
      setBusy(false);
      if (workspaceId && e instanceof ApiError && e.status === 429) api.usage(workspaceId).then(setUsage, () => undefined);
    }
  };

  const limits = usage ? usageLine(usage) : null;
  const exhausted = usage ? usageParts(usage).some((p) => p.exhausted) : false;
  const reserve = usage ? reserveLine(usage) : null;
  const settingsLink = workspaceId ? `/workspaces/${workspaceId}` : '/workspaces';

  return (
    <Modal onClose={onClose} label="Start a run">
      <div className="modal modal-wide" data-testid="run-dialog">
        <header className="modal-head">
          <h3>Start a run</h3>
          <button className="icon-btn" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </header>
        <div className="grid2">
          <label className="field">
            <span className="field-label">Provider</span>
            <select className="input" value={provider} onChange={(e) => touch(setProvider)(e.target.value as StartRunBody['provider'])} data-testid="run-provider" data-autofocus>
              <option value="simulated">Simulated (scripted replies, no cost)</option>
              {(['openai', 'anthropic'] as const).map((name) => {
                const info = providers?.find((p) => p.name === name);
                const state = !info ? '' : info.ready ? (info.key_source === 'server' ? ' (server key)' : ' (workspace key)') : ' (no key yet)';
                return (
                  <option key={name} value={name}>
                    {(name === 'openai' ? 'OpenAI' : 'Anthropic') + state}
                  </option>
                );
              })}
            </select>
          </label>
          <label className="field">
            <span className="field-label">Model (optional)</span>
            <input className="input mono" value={model} onChange={(e) => touch(setModel)(e.target.value)} placeholder="agent or provider default" />
          </label>
        </div>
        {from && (
          <p className="muted small" data-testid="run-settings-from">
            Filled in from {from}
            {carried.length > 0 ? `, which still ${carried.join('; ')}` : ''}.{' '}
            <button type="button" className="btn ghost small" onClick={startFromDefaults} data-testid="run-settings-reset">
              Start from defaults
            </button>
          </p>
        )}
        {limits && (
          <p className={`small run-usage${exhausted ? ' run-usage-exhausted' : ' muted'}`} data-testid="run-usage">
            {exhausted && <strong>Limit reached: </strong>}
            {limits}
          </p>
        )}
        {reserve && (
          <p className="small muted" data-testid="run-reserve">
            {reserve}
          </p>
        )}
        {missingKey && (
          <div className="banner banner-warning" role="status" data-testid="run-missing-key">
            No {chosen?.label} API key in this workspace yet: add one in{' '}
            <a href={settingsLink} onClick={(e) => onLinkClick(e, settingsLink)} data-testid="run-missing-key-settings">
              workspace settings
            </a>{' '}
            (your personal workspace’s keys are also on <a href="/account/">your account page</a>), or ask the server’s owner to grant this workspace
            the server’s keys.
          </div>
        )}
        {chosen && chosen.ready && chosen.key_source && (
          <p className="muted small" data-testid="run-key-source">
            Uses {chosen.key_source === 'server' ? 'the server’s key, granted to this workspace' : 'the key stored in this workspace'} (
            <a href={settingsLink} onClick={(e) => onLinkClick(e, settingsLink)}>
              workspace settings
            </a>
            ).
          </p>
        )}
        {provider === 'simulated' && (
          <div className="field">
            <span className="field-label">Script</span>
            <div className="field-help">
              What each agent replies, in order, keyed by step id, agent name or <code>*</code>. A judge reply sets <code>result: {'{done, reason}'}</code>.
            </div>
            <CodeEditor value={script} onChange={touch(setScript)} extensions={extensions} lineNumbers className="cm-script" ariaLabel="Simulation script" testId="run-script" />
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
                <input className="input" inputMode="decimal" value={budgets[k]} onChange={(e) => touch(setBudgets)({ ...budgets, [k]: e.target.value })} />
              </label>
            ))}
          </div>
        </div>
        <RunWorkspaceSection workflowId={workflowId} start={workspaceStart} onStart={setWorkspaceStart} askBefore={askBefore} onAskBefore={touch(setAskBefore)} />
        {loopIdsOf(doc).length > 0 && (
          <details className="run-advanced">
            <summary>Run policies (optional): extra stop rules and what a failed iteration does</summary>
            <PoliciesForm value={policies} onChange={touch(setPolicies)} loopIds={loopIdsOf(doc)} />
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
          <button className="btn primary" disabled={busy || missingKey} title={missingKey ? 'Add a key first (workspace settings)' : undefined} onClick={() => void start()} data-testid="run-start">
            {busy ? 'Starting…' : 'Start run'}
          </button>
        </footer>
      </div>
    </Modal>
  );
}
