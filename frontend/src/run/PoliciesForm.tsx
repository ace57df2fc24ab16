// A controlled form for run-level policies: stop rules for repeat-until loops,
// how they combine, what a failed iteration does, and which loops they cover.
// They are kept on the run (POST /api/v1/runs `policies`), not in the file.
import { useId } from 'react';
import { newRule, type RunPolicies, type StopRule, type StopRuleKind } from './policies';
import './policies.css';

export { EMPTY_POLICIES, loopIdsOf, newRule, policiesForRequest } from './policies';
export type { RunPolicies, StopRule, StopRuleKind } from './policies';

const RULE_LABEL: Record<StopRuleKind, string> = {
  converged: 'Converged',
  output_contains: 'Output contains',
  approval: 'Approval',
};

const RULE_HELP: Record<StopRuleKind, string> = {
  converged: 'Stops when an iteration’s output is about the same as the previous one.',
  output_contains: 'Stops when an iteration’s output contains this text.',
  approval: 'Stops when the output approves (“approved”, “LGTM”, “ship it” …) and says nothing like “not approved” or “needs work”.',
};

const ERROR_HELP: Record<RunPolicies['on_iteration_error'], string> = {
  abort: 'Abort: the loop fails at the first failed iteration (the default).',
  retry: 'Retry: run the failed iteration again (it counts toward maxIterations).',
  skip: 'Skip: record it as failed and go on with the next one.',
};

function RuleRow({
  rule,
  index,
  onChange,
  onRemove,
}: {
  rule: StopRule;
  index: number;
  onChange: (rule: StopRule) => void;
  onRemove: () => void;
}) {
  const n = index + 1;
  return (
    <li className="policy-rule" data-testid="stop-rule" data-kind={rule.kind}>
      <div className="policy-rule-main">
        <select
          className="input"
          aria-label={`Stop rule ${n} kind`}
          value={rule.kind}
          onChange={(e) => onChange(newRule(e.target.value as StopRuleKind))}
        >
          {(Object.keys(RULE_LABEL) as StopRuleKind[]).map((k) => (
            <option key={k} value={k}>
              {RULE_LABEL[k]}
            </option>
          ))}
        </select>
        {rule.kind === 'converged' && (
          <label className="mini-field">
            <span className="muted small">Similarity threshold, 0 to 1 (optional; empty = identical)</span>
            <input
              className="input"
              type="number"
              min={0}
              max={1}
              step={0.01}
              inputMode="decimal"
              placeholder="1"
              aria-label={`Stop rule ${n} similarity threshold`}
              value={rule.threshold ?? ''}
              onChange={(e) => {
                const raw = e.target.value;
                const num = Number(raw);
                onChange(raw.trim() === '' || !Number.isFinite(num) ? { kind: 'converged' } : { kind: 'converged', threshold: num });
              }}
            />
          </label>
        )}
        {rule.kind === 'output_contains' && (
          <label className="mini-field">
            <span className="muted small">Marker text</span>
            <input
              className="input mono"
              placeholder="DONE"
              aria-label={`Stop rule ${n} marker`}
              value={rule.marker}
              onChange={(e) => onChange({ kind: 'output_contains', marker: e.target.value })}
            />
          </label>
        )}
        <button className="icon-btn" aria-label={`Remove stop rule ${n}`} title="Remove this rule" onClick={onRemove}>
          ×
        </button>
      </div>
      <div className="field-help">{RULE_HELP[rule.kind]}</div>
    </li>
  );
}

export function PoliciesForm({ value, onChange, loopIds }: { value: RunPolicies; onChange: (value: RunPolicies) => void; loopIds: string[] }) {
  const ids = useId();
  const rules = value.stop_rules ?? [];
  const chosen = value.loops ?? [];
  // Loops named in the value but gone from the document still show, so they can be unticked.
  const shown = [...loopIds, ...chosen.filter((id) => !loopIds.includes(id))];

  const setRules = (next: StopRule[]) => onChange({ ...value, stop_rules: next });
  const toggleLoop = (id: string, on: boolean) => {
    const next = on ? [...chosen.filter((x) => x !== id), id] : chosen.filter((x) => x !== id);
    const copy: RunPolicies = { ...value, loops: next };
    if (next.length === 0) delete copy.loops;
    onChange(copy);
  };

  return (
    <fieldset className="policies" data-testid="run-policies">
      <legend className="field-label">Run policies (kept on this run, not part of the exported file)</legend>

      <div className="policies-part">
        <span className="policies-title" id={`${ids}-rules`}>
          Stop rules for repeat-until loops
        </span>
        {rules.length === 0 ? (
          <p className="muted small policies-empty">None: loops stop on their own until, judge or maxIterations.</p>
        ) : (
          <ol className="policy-rules" aria-labelledby={`${ids}-rules`}>
            {rules.map((r, i) => (
              <RuleRow
                key={i}
                rule={r}
                index={i}
                onChange={(rule) => setRules(rules.map((x, j) => (j === i ? rule : x)))}
                onRemove={() => setRules(rules.filter((_, j) => j !== i))}
              />
            ))}
          </ol>
        )}
        <div className="row">
          <span className="muted small">Add a rule:</span>
          {(Object.keys(RULE_LABEL) as StopRuleKind[]).map((k) => (
            <button key={k} className="btn small ghost" onClick={() => setRules([...rules, newRule(k)])}>
              + {RULE_LABEL[k]}
            </button>
          ))}
        </div>
      </div>

      <div className="grid2 policies-part">
        <label className="mini-field">
          <span className="muted small">When there are several rules</span>
          <select
            className="input"
            value={value.combine ?? 'any'}
            onChange={(e) => onChange({ ...value, combine: e.target.value === 'all' ? 'all' : 'any' })}
            aria-label="Combine stop rules"
            disabled={rules.length < 2}
          >
            <option value="any">Stop when any rule fires</option>
            <option value="all">Stop when all rules fire on the same iteration</option>
          </select>
        </label>
        <label className="mini-field">
          <span className="muted small">When an iteration fails</span>
          <select
            className="input"
            value={value.on_iteration_error ?? 'abort'}
            onChange={(e) => onChange({ ...value, on_iteration_error: e.target.value as RunPolicies['on_iteration_error'] })}
            aria-label="On iteration error"
          >
            <option value="abort">Abort the loop (default)</option>
            <option value="retry">Retry the iteration</option>
            <option value="skip">Skip it and go on</option>
          </select>
          <span className="field-help">{ERROR_HELP[value.on_iteration_error ?? 'abort']}</span>
        </label>
      </div>

      <div className="policies-part">
        <span className="policies-title" id={`${ids}-loops`}>
          Applies to
        </span>
        {shown.length === 0 ? (
          <p className="muted small policies-empty">This workflow has no loop steps; the policies would change nothing.</p>
        ) : (
          <>
            <div className="checks" role="group" aria-labelledby={`${ids}-loops`}>
              {shown.map((id) => (
                <label key={id} className={`check${loopIds.includes(id) ? '' : ' missing'}`} title={loopIds.includes(id) ? undefined : 'Not a loop step of this workflow'}>
                  <input type="checkbox" checked={chosen.includes(id)} onChange={(e) => toggleLoop(id, e.target.checked)} />
                  <span className="mono">{id}</span>
                </label>
              ))}
            </div>
            <div className="field-help">{chosen.length === 0 ? 'None ticked: every loop.' : `Only ${chosen.length === 1 ? 'this loop' : 'these loops'}.`}</div>
          </>
        )}
      </div>
    </fieldset>
  );
}
