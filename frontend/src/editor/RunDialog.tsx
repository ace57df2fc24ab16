import { Modal } from '../components/Modal';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { stringify } from 'yaml';
import { ApiError, api, errorText, type CoordinatorMode, type StartRunBody } from '../api/client';
import type { Budgets, ProviderInfo, Run, WorkspaceUsage } from '../api/types';
import { onLinkClick } from '../router';
import { limitMessage, reserveLine, usageLine, usageParts } from '../workspaces/usage';
import { DEFAULT_BUDGETS, DEFAULT_COORDINATOR, recalledRunSettings, rememberRunSettings, settingsFromRun, type RunSettings } from './runSettings';
import { ScriptField } from '../forms/ScriptField';
import { isObject, type WorkflowDoc } from '../doc/types';
import { EMPTY_POLICIES, loopIdsOf, PoliciesForm, policiesForRequest, type RunPolicies } from '../run/PoliciesForm';
import { EMPTY_START, workspaceFields, type WorkspaceStart } from './runWorkspace';
import { RunWorkspaceSection } from './RunWorkspaceSection';
import { RunPermissionsSection } from './RunPermissionsSection';
import { RunReasoningSection } from './RunReasoningSection';
import { DEFAULT_PERMISSIONS, permissionsBlock, permissionsForRequest, permissionsProblem, permissionsSet, type RunPermissions, type ThinkingLevel } from '../run/permissions';
import { runnableProviders } from './runProviders';
import { PinsList } from '../run/debug/PinsList';
import { BreakpointsList } from '../run/debug/BreakpointsList';
import type { Breakpoint } from '../breakpoints/rules';

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
 * with a resultSchema submit a placeholder result; judges say "not yet", then "done";
 * the coordinator narrates the start and sums the run up at its end.
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
  // An agent of that name keeps its own replies (it would take the coordinator's otherwise).
  if (!('coordinator' in replies)) {
    replies.coordinator = [
      { when: 'started', tool_calls: [{ name: 'narrate', arguments: { text: 'The run has started.' } }] },
      { when: 'have all ended', tool_calls: [{ name: 'finalize', arguments: { summary: 'Every step ran with its simulated reply.' } }] },
      'Nothing to add.',
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
  const [overrideModel, setOverrideModel] = useState(recalled?.overrideModel ?? false);
  const [script, setScript] = useState(() => recalled?.script || starterScript(doc));
  const [budgets, setBudgets] = useState<Record<keyof Budgets, string>>(recalled?.budgets ?? DEFAULT_BUDGETS);
  const [policies, setPolicies] = useState<RunPolicies>(recalled?.policies ?? EMPTY_POLICIES);
  // An upload or an earlier run belongs to this dialog only; the gated tools are remembered with the rest.
  const [workspaceStart, setWorkspaceStart] = useState<WorkspaceStart>(EMPTY_START);
  const [askBefore, setAskBefore] = useState<string[]>(recalled?.askBefore ?? []);
  const [coordinator, setCoordinator] = useState<CoordinatorMode>(recalled?.coordinator ?? DEFAULT_COORDINATOR);
  const [sharedMemory, setSharedMemory] = useState(recalled?.sharedMemory ?? false);
  const [permissions, setPermissions] = useState<RunPermissions>(recalled?.permissions ?? DEFAULT_PERMISSIONS);
  const [thinking, setThinking] = useState<ThinkingLevel | null>(recalled?.thinking ?? null);
  const [usePins, setUsePins] = useState(true);
  const [holdAtBreakpoints, setHoldAtBreakpoints] = useState(true);
  // Breakpoints for this run only (checked as added): never saved with the workflow, nor remembered.
  const [runBreakpoints, setRunBreakpoints] = useState<Breakpoint[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [providers, setProviders] = useState<ProviderInfo[] | null>(null);
  const [usage, setUsage] = useState<WorkspaceUsage | null>(null);
  const [from, setFrom] = useState<string | null>(recalled ? 'the settings you used last' : null);
  const touched = useRef(false);

  const apply = (s: RunSettings) => {
    setProvider(s.provider);
    setModel(s.model);
    setOverrideModel(s.overrideModel ?? false);
    if (s.script) setScript(s.script);
    setBudgets(s.budgets);
    setPolicies(s.policies);
    if (s.askBefore) setAskBefore(s.askBefore);
    setCoordinator(s.coordinator ?? DEFAULT_COORDINATOR);
    setSharedMemory(s.sharedMemory ?? false);
    setPermissions(s.permissions ?? DEFAULT_PERMISSIONS);
    setThinking(s.thinking ?? null);
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
    rememberRunSettings(workflowId, { provider, model, overrideModel, script, budgets, policies, askBefore, coordinator, sharedMemory, permissions, thinking });
  }, [workflowId, provider, model, overrideModel, script, budgets, policies, askBefore, coordinator, sharedMemory, permissions, thinking]);

  // What was carried over that changes how the run behaves: said, never kept silently.
  const carried = [
    overrideModel && model.trim() ? `runs every agent on ${model.trim()}` : null,
    askBefore.length > 0 ? `asks before ${askBefore.join(', ')}` : null,
    Object.entries(budgets).some(([k, v]) => v !== DEFAULT_BUDGETS[k as keyof Budgets]) ? 'has its own budgets' : null,
    JSON.stringify(policies) !== JSON.stringify(EMPTY_POLICIES) ? 'has its own failure policies' : null,
    coordinator !== DEFAULT_COORDINATOR ? (coordinator === 'off' ? 'runs without a coordinator' : 'has a coordinator that does not narrate') : null,
    sharedMemory ? 'shares memory between its agents' : null,
    permissionsSet(permissions) ? 'has its own tool permissions' : null,
    thinking ? `asks for reasoning ${thinking}` : null,
  ].filter((x): x is string => x !== null);
  const startFromDefaults = () => {
    touched.current = true;
    setProvider('simulated');
    setModel('');
    setOverrideModel(false);
    setScript(starterScript(doc));
    setBudgets(DEFAULT_BUDGETS);
    setPolicies(EMPTY_POLICIES);
    setAskBefore([]);
    setCoordinator(DEFAULT_COORDINATOR);
    setSharedMemory(false);
    setPermissions(DEFAULT_PERMISSIONS);
    setThinking(null);
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
    if (permissionsBlock(permissions)) {
      setError(`Permissions: ${permissionsProblem(permissions)}`);
      setBusy(false);
      return;
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
        model_override: overrideModel && model.trim() ? true : undefined,
        script: provider === 'simulated' && script.trim() ? script : undefined,
        budgets: Object.keys(b).length ? b : undefined,
        policies: policiesForRequest(policies),
        coordinator,
        shared_memory: sharedMemory || undefined,
        permissions: permissionsForRequest(permissions),
        thinking: thinking ?? undefined,
        use_pins: usePins ? undefined : false,
        breakpoints_off: holdAtBreakpoints ? undefined : true,
        breakpoints: runBreakpoints.length ? runBreakpoints : undefined,
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
              {/* OpenAI and Anthropic always; upstream's other providers once the workspace can use them (GET /providers). */}
              {runnableProviders(providers, provider).map((name) => {
                const info = providers?.find((p) => p.name === name);
                const state = !info ? '' : info.ready ? (info.key_source === 'server' ? ' (server key)' : info.key_source ? ' (workspace key)' : '') : ' (no key yet)';
                return (
                  <option key={name} value={name}>
                    {(info?.label ?? (name === 'openai' ? 'OpenAI' : 'Anthropic')) + state}
                  </option>
                );
              })}
            </select>
          </label>
          <label className="field">
            <span className="field-label">Model (optional)</span>
            <input className="input mono" value={model} onChange={(e) => touch(setModel)(e.target.value)} placeholder="agent or provider default" />
          </label>
          <label className="check" title="As zenflow's --model: the workflow itself is not changed">
            <input
              type="checkbox"
              checked={overrideModel}
              disabled={!model.trim()}
              onChange={(e) => touch(setOverrideModel)(e.target.checked)}
              data-testid="run-model-override"
            />
            <span>{model.trim() ? `Use ${model.trim()} for every agent and judge` : 'Name a model to use it for every agent'}</span>
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
          <ScriptField value={script} onChange={touch(setScript)} document={doc} testId="run-script">
            <button className="btn small ghost" onClick={() => setScript(starterScript(doc))}>
              Reset to the starter script
            </button>
          </ScriptField>
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
        <div className="grid2">
          <label className="field">
            <span className="field-label">Coordinator</span>
            <select className="input" value={coordinator} onChange={(e) => touch(setCoordinator)(e.target.value as CoordinatorMode)} data-testid="run-coordinator">
              <option value="narrate">Narrates, forwards messages, sums up</option>
              <option value="summary-only">Forwards messages and sums up only</option>
              <option value="off">None (no narration, no summary, no cost)</option>
            </select>
            <span className="field-help">A model that watches the run, passes messages between steps and writes its summary; its calls count in the run’s cost.</span>
          </label>
          <label className="field">
            <span className="field-label">Shared memory</span>
            <span className="check">
              <input type="checkbox" checked={sharedMemory} onChange={(e) => touch(setSharedMemory)(e.target.checked)} data-testid="run-shared-memory" />
              Agents share notes (shared_memory_write / _read)
            </span>
          </label>
        </div>
        <div className="grid2">
          <RunReasoningSection value={thinking} onChange={touch(setThinking)} />
        </div>
        <RunPermissionsSection value={permissions} onChange={touch(setPermissions)} />
        <PinsList workflowId={workflowId} use={usePins} onUse={setUsePins} />
        <BreakpointsList
          workflowId={workflowId}
          doc={doc}
          hold={holdAtBreakpoints}
          onHold={setHoldAtBreakpoints}
          added={runBreakpoints}
          onAdded={setRunBreakpoints}
        />
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
