// The inspector: a form for every field of the selected item (workflow,
// agents, steps, loops, options, includes). Edits go through pure document
// ops; the server validates and its diagnostics show under each field.
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { json } from '@codemirror/lang-json';
import type { Diag } from '../api/types';
import { CelInput } from '../components/CelInput';
import { CodeEditor } from '../components/CodeEditor';
import { celVariables, type CelField } from '../doc/celScope';
import {
  agentUsers,
  makeJudge,
  removeAgent,
  removeSteps,
  renameAgent,
  renameStep,
  setAgent,
  setAgentField,
  setDocField,
  setInclude,
  setLoopField,
  setOption,
  setStepField,
  uniqueAgentName,
  disconnect,
} from '../doc/ops';
import { targetOf, type Target } from '../doc/pointer';
import { isObject, type Json, type JsonObject, type Step, type WorkflowDoc } from '../doc/types';
import { locate } from '../graph/keys';
import { kindOf } from '../graph/mapping';
import { useEditor, useEditorStore } from '../store/context';
import { CrashProbe } from '../components/CrashProbe';
import { useIterationSources } from '../nodes/loopShared';
import { PLACEHOLDER_UNTIL } from '../nodes/repeat/defaults';
import type { Selection } from '../store/editorStore';
import { Field, ListInput, NumberInput, Section, RenameInput, SelectInput, TextInput } from './fields';
import { HELP } from './help';

type Tab = 'workflow' | 'agents' | 'options' | 'includes';

/** Diagnostics that point at one field (or below it) of a target. */
function useProblems(match: (t: Target) => boolean): (field: string) => Diag[] {
  const errors = useEditor((s) => s.errors);
  const warnings = useEditor((s) => s.warnings);
  const doc = useEditor((s) => s.doc);
  const list = useMemo(() => {
    const out: { t: Target; d: Diag }[] = [];
    for (const d of [...errors, ...warnings]) {
      const t = targetOf(doc, d.path);
      if (match(t)) out.push({ t, d });
    }
    return out;
    // `match` is rebuilt each render; the target identity is in its closure values.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [errors, warnings, doc]);
  return (field: string) =>
    list
      .filter(({ t }) => {
        const f = 'field' in t ? t.field : '';
        return field === '' ? f === '' : f === field || f.startsWith(field + '.');
      })
      .map(({ d }) => d);
}

/** Focus and reveal a field when the problems panel asks for it. */
function useFocusField(container: React.RefObject<HTMLDivElement | null>) {
  const field = useEditor((s) => s.focusField);
  const nonce = useEditor((s) => s.focusNonce);
  useEffect(() => {
    if (!field || !container.current) return;
    const parts = field.split('.');
    // Try the most precise field first: loop.until, then loop.
    for (let n = parts.length; n > 0; n--) {
      const f = parts.slice(0, n).join('.');
      const el = container.current.querySelector<HTMLElement>(`[data-field="${CSS.escape(f)}"]`);
      if (el) {
        el.scrollIntoView({ block: 'center' });
        const input = el.querySelector<HTMLElement>('input, textarea, select, .cm-content');
        input?.focus({ preventScroll: true });
        el.classList.add('flash');
        setTimeout(() => el.classList.remove('flash'), 900);
        return;
      }
    }
  }, [field, nonce, container]);
}

export const Inspector = memo(function Inspector() {
  const selection = useEditor((s) => s.selection);
  const readOnly = useEditor((s) => s.readOnly);
  const [tab, setTab] = useState<Tab>('workflow');
  const ref = useRef<HTMLDivElement>(null);
  useFocusField(ref);

  // Another node chosen: start at the top of its panel, not at the previous node's scroll position.
  const selectedKey = selection?.kind === 'step' ? selection.key : selection?.kind ?? '';
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = 0;
  }, [selectedKey]);

  useEffect(() => {
    if (selection?.kind === 'agent') setTab('agents');
    else if (selection?.kind === 'options') setTab('options');
    else if (selection?.kind === 'includes') setTab('includes');
    else if (selection?.kind === 'workflow') setTab('workflow');
  }, [selection]);

  let body;
  if (selection?.kind === 'step') body = <StepForm key={selection.key} stepKey={selection.key} />;
  else if (selection?.kind === 'edge') body = <EdgePanel selection={selection} />;
  else {
    body = (
      <>
        <div className="tabs" role="tablist">
          {(['workflow', 'agents', 'options', 'includes'] as Tab[]).map((t) => (
            <button key={t} role="tab" aria-selected={tab === t} className={`tab${tab === t ? ' active' : ''}`} onClick={() => setTab(t)}>
              {t[0].toUpperCase() + t.slice(1)}
            </button>
          ))}
        </div>
        <CrashProbe name={`inspector-${tab}`} />
        {tab === 'workflow' && <WorkflowForm />}
        {tab === 'agents' && <AgentsPanel selected={selection?.kind === 'agent' ? selection.name : null} />}
        {tab === 'options' && <OptionsForm />}
        {tab === 'includes' && <IncludesForm />}
      </>
    );
  }
  return (
    <aside className={`inspector${readOnly ? ' read-only' : ''}`} ref={ref} data-testid="inspector">
      <fieldset disabled={readOnly} className="insp-fieldset">
        {body}
      </fieldset>
    </aside>
  );
});

/** The fallback for a missing mapping. A store selector must return the same object while nothing
 * changed: a fresh `{}` each call makes React re-render forever (error #185). */
const NO_FIELDS: JsonObject = Object.freeze({}) as JsonObject;

function useApply() {
  const store = useEditorStore();
  return (fn: (doc: WorkflowDoc) => WorkflowDoc, coalesce?: string) => {
    const s = store.getState();
    s.applyDoc(fn(s.doc), { coalesce });
  };
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);
}

function optStr(v: string): string | undefined {
  return v === '' ? undefined : v;
}

// ---------------------------------------------------------------- workflow

function WorkflowForm() {
  const doc = useEditor((s) => s.doc);
  const apply = useApply();
  const problems = useProblems((t) => t.kind === 'workflow');
  return (
    <div className="insp-body">
      <Section title="Workflow">
        <Field field="name" label="Name" help={HELP['workflow.name']} problems={problems('name')}>
          <TextInput field="name" value={str(doc.name)} onChange={(v) => apply((d) => setDocField(d, 'name', v), 'wf.name')} />
        </Field>
        <Field field="description" label="Description" help={HELP['workflow.description']} problems={problems('description')}>
          <TextInput field="description" multiline value={str(doc.description)} onChange={(v) => apply((d) => setDocField(d, 'description', optStr(v)), 'wf.description')} />
        </Field>
        <Field field="version" label="Version" help={HELP['workflow.version']} problems={problems('version')}>
          <NumberInput field="version" integer value={doc.version} placeholder="1" onChange={(v) => apply((d) => setDocField(d, 'version', v), 'wf.version')} />
        </Field>
      </Section>
      <p className="muted small">Select a step on the canvas to edit it. Click empty canvas to come back here.</p>
    </div>
  );
}

// ---------------------------------------------------------------- options

function OptionsForm() {
  const options: JsonObject = useEditor((s) => (isObject(s.doc.options) ? s.doc.options : NO_FIELDS));
  const apply = useApply();
  const problems = useProblems((t) => t.kind === 'options');
  const set = (field: string) => (v: Json | undefined) => apply((d) => setOption(d, field, v), `opt.${field}`);
  return (
    <div className="insp-body">
      <Section title="Options">
        <Field field="maxConcurrency" label="Max concurrency" help={HELP['options.maxConcurrency']} problems={problems('maxConcurrency')}>
          <NumberInput field="maxConcurrency" integer value={options.maxConcurrency} placeholder="5" onChange={set('maxConcurrency')} />
        </Field>
        <Field field="onStepFailure" label="On step failure" help={HELP['options.onStepFailure']} problems={problems('onStepFailure')}>
          <SelectInput
            field="onStepFailure"
            value={options.onStepFailure as string | undefined}
            unsetLabel="(default: cascade)"
            options={['cascade', 'skip-dependents', 'abort'].map((v) => ({ value: v, label: v }))}
            onChange={set('onStepFailure')}
          />
        </Field>
        <Field field="timeout" label="Run timeout" help={HELP['options.timeout']} problems={problems('timeout')}>
          <TextInput field="timeout" mono value={str(options.timeout)} placeholder="1h" onChange={(v) => set('timeout')(optStr(v))} />
        </Field>
        <Field field="stepTimeout" label="Step timeout" help={HELP['options.stepTimeout']} problems={problems('stepTimeout')}>
          <TextInput field="stepTimeout" mono value={str(options.stepTimeout)} placeholder="30m" onChange={(v) => set('stepTimeout')(optStr(v))} />
        </Field>
        <Field field="scheduler" label="Scheduler" help={HELP['options.scheduler']} problems={problems('scheduler')}>
          <SelectInput
            field="scheduler"
            value={options.scheduler as string | undefined}
            unsetLabel="(default: dependency-first)"
            options={['dependency-first', 'round-robin', 'least-busy'].map((v) => ({ value: v, label: v }))}
            onChange={set('scheduler')}
          />
        </Field>
        <Field field="isolation" label="Isolation" help={HELP['options.isolation']} problems={problems('isolation')}>
          <TextInput field="isolation" value={str(options.isolation)} onChange={(v) => set('isolation')(optStr(v))} />
        </Field>
        <Field field="maxRetries" label="Max tool-call retries" help={HELP['options.maxRetries']} problems={problems('maxRetries')}>
          <NumberInput field="maxRetries" integer value={options.maxRetries} onChange={set('maxRetries')} />
        </Field>
      </Section>
    </div>
  );
}

// ---------------------------------------------------------------- includes

function IncludesForm() {
  const includes = useEditor((s) => (isObject(s.doc.includes) ? (s.doc.includes as Record<string, Json>) : NO_FIELDS));
  const apply = useApply();
  const problems = useProblems((t) => t.kind === 'includes');
  const [name, setName] = useState('');
  return (
    <div className="insp-body">
      <Section title="Includes">
        <p className="field-help">{HELP.includes}</p>
        {Object.keys(includes).length === 0 && <p className="muted small">No includes yet.</p>}
        {Object.entries(includes).map(([k, v]) => (
          <div className="include-row" key={k} data-field={`includes.${k}`}>
            <code className="include-name">{k}</code>
            <TextInput field={`include-${k}`} mono value={str(v)} onChange={(p) => apply((d) => setInclude(d, k, p), `inc.${k}`)} />
            <button className="icon-btn" title={`Remove include ${k}`} onClick={() => apply((d) => setInclude(d, k, undefined))}>
              ×
            </button>
            {problems('').length > 0 && null}
          </div>
        ))}
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            const n = name.trim();
            if (!n) return;
            apply((d) => setInclude(d, n, `workflows/${n}.yaml`));
            setName('');
          }}
        >
          <input className="input" placeholder="include name" value={name} onChange={(e) => setName(e.target.value)} aria-label="New include name" />
          <button className="btn small" type="submit">
            Add include
          </button>
        </form>
      </Section>
    </div>
  );
}

// ---------------------------------------------------------------- agents

function AgentsPanel({ selected }: { selected: string | null }) {
  const agents = useEditor((s) => (isObject(s.doc.agents) ? s.doc.agents : NO_FIELDS));
  const store = useEditorStore();
  const names = Object.keys(agents);
  const current = selected && selected in agents ? selected : null;
  return (
    <div className="insp-body">
      <Section
        title="Agents"
        actions={
          <button
            className="btn small"
            onClick={() => {
              const s = store.getState();
              const name = uniqueAgentName(s.doc, 'agent');
              s.applyDoc(setAgent(s.doc, name, { description: 'What this agent does.' }), { select: { kind: 'agent', name } });
            }}
          >
            + Add agent
          </button>
        }
      >
        {names.length === 0 && <p className="muted small">No agents yet. Steps without an agent use the runner’s default agent.</p>}
        <div className="agent-list">
          {names.map((n) => (
            <button key={n} className={`agent-chip${n === current ? ' active' : ''}`} onClick={() => store.getState().select({ kind: 'agent', name: n })}>
              {n}
            </button>
          ))}
        </div>
      </Section>
      {current && <AgentForm key={current} name={current} />}
    </div>
  );
}

function isJudge(agent: JsonObject): boolean {
  const schema = agent.resultSchema;
  if (!isObject(schema) || !isObject(schema.properties)) return false;
  const done = schema.properties.done;
  return isObject(done) && done.type === 'boolean' && Array.isArray(schema.required) && schema.required.includes('done');
}

function AgentForm({ name }: { name: string }) {
  const agent: JsonObject = useEditor((s) => (isObject(s.doc.agents) && isObject(s.doc.agents[name]) ? s.doc.agents[name] : NO_FIELDS));
  const users = useEditor((s) => agentUsers(s.doc, name));
  const store = useEditorStore();
  const apply = useApply();
  const problems = useProblems((t) => t.kind === 'agent' && t.name === name);
  const set = (field: string) => (v: Json | undefined) => apply((d) => setAgentField(d, name, field, v), `agent.${name}.${field}`);
  const judge = isJudge(agent);
  return (
    <Section title={`Agent “${name}”`}>
      <Field field="name" label="Name" help={HELP['agent.name']} problems={problems('')}>
        <RenameInput
          field="name"
          value={name}
          onRename={(next) => {
            const s = store.getState();
            s.applyDoc(renameAgent(s.doc, name, next), { select: { kind: 'agent', name: next } });
          }}
        />
      </Field>
      <Field field="description" label="Description" help={HELP['agent.description']} problems={problems('description')}>
        <TextInput field="description" multiline rows={2} value={str(agent.description)} onChange={(v) => set('description')(v)} />
      </Field>
      <Field field="prompt" label="System prompt" help={HELP['agent.prompt']} problems={problems('prompt')}>
        <TextInput field="prompt" multiline rows={4} value={str(agent.prompt)} onChange={(v) => set('prompt')(optStr(v))} />
      </Field>
      <Field field="model" label="Model" help={HELP['agent.model']} problems={problems('model')}>
        <TextInput field="model" mono value={str(agent.model)} placeholder="claude-sonnet-4-6" onChange={(v) => set('model')(optStr(v))} />
      </Field>
      <div className="grid2">
        <Field field="temperature" label="Temperature" help={HELP['agent.temperature']} problems={problems('temperature')}>
          <NumberInput field="temperature" value={agent.temperature} step={0.1} onChange={set('temperature')} />
        </Field>
        <Field field="topP" label="Top P" help={HELP['agent.topP']} problems={problems('topP')}>
          <NumberInput field="topP" value={agent.topP} step={0.05} onChange={set('topP')} />
        </Field>
      </div>
      <Field field="maxTurns" label="Max turns" help={HELP['agent.maxTurns']} problems={problems('maxTurns')}>
        <NumberInput field="maxTurns" integer value={agent.maxTurns} placeholder="50" onChange={set('maxTurns')} />
      </Field>
      <Field field="tools" label="Tools" help={HELP['agent.tools']} problems={problems('tools')}>
        <ListInput field="tools" value={agent.tools} placeholder={'read\nbash'} onChange={(v) => set('tools')(v)} />
      </Field>
      <Field field="disallowedTools" label="Disallowed tools" help={HELP['agent.disallowedTools']} problems={problems('disallowedTools')}>
        <ListInput field="disallowedTools" value={agent.disallowedTools} onChange={(v) => set('disallowedTools')(v)} />
      </Field>
      <Field field="resultSchema" label="Result schema (JSON)" help={HELP['agent.resultSchema']} problems={problems('resultSchema')}>
        <JsonInput field="resultSchema" value={agent.resultSchema} onChange={(v) => set('resultSchema')(v)} />
      </Field>
      <div className="row">
        <button
          className="btn small"
          data-testid="make-judge"
          disabled={judge}
          title="Adds a resultSchema with a required boolean done and a reason"
          onClick={() => apply((d) => makeJudge(d, name))}
        >
          {judge ? '✓ Judge contract in place' : 'Make this agent a judge'}
        </button>
        <button
          className="btn small danger ghost"
          onClick={() => {
            if (users > 0 && !window.confirm(`${users} step(s) use “${name}”. Delete it anyway?`)) return;
            const s = store.getState();
            s.applyDoc(removeAgent(s.doc, name), { select: { kind: 'agent', name: '' } });
          }}
        >
          Delete agent
        </button>
      </div>
      <p className="muted small">{users === 0 ? 'No step uses this agent yet.' : `Used by ${users} step(s) or loop judge(s).`}</p>
    </Section>
  );
}

/** JSON editor (CodeMirror); text that is not JSON is kept here, not applied. */
function JsonInput({ field, value, onChange }: { field: string; value: unknown; onChange: (v: JsonObject | undefined) => void }) {
  const external = value === undefined ? '' : JSON.stringify(value, null, 2);
  const [text, setText] = useState(external);
  const [error, setError] = useState<string | null>(null);
  const last = useRef(external);
  useEffect(() => {
    // Follow outside changes (undo, YAML view, make-judge) unless they echo ours.
    let same = false;
    try {
      same = text.trim() !== '' && JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
    } catch {
      same = false;
    }
    if (!same && external !== last.current) {
      setText(external);
      setError(null);
    }
    last.current = external;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [external]);
  const extensions = useMemo(() => [json()], []);
  return (
    <>
      <CodeEditor
        value={text}
        id={`f-${field}`}
        extensions={extensions}
        className="cm-json"
        placeholder='{"type": "object", "properties": {}}'
        ariaLabel="result schema JSON"
        onChange={(t) => {
          setText(t);
          if (t.trim() === '') {
            setError(null);
            onChange(undefined);
            return;
          }
          try {
            const parsed: unknown = JSON.parse(t);
            if (!isObject(parsed)) {
              setError('A JSON Schema is an object: { ... }.');
              return;
            }
            setError(null);
            onChange(parsed);
          } catch (e) {
            setError(`Not JSON yet: ${e instanceof Error ? e.message : String(e)}`);
          }
        }}
      />
      {error && <div className="field-problem error">{error}</div>}
    </>
  );
}

// ---------------------------------------------------------------- steps

function StepForm({ stepKey }: { stepKey: string }) {
  const doc = useEditor((s) => s.doc);
  const store = useEditorStore();
  const apply = useApply();
  const problems = useProblems((t) => t.kind === 'step' && t.key === stepKey);
  const found = locate(doc, stepKey);
  if (!found) return <div className="insp-body muted">This step no longer exists.</div>;
  const step = found.step;
  const kind = kindOf(step);
  const isInclude = kind === 'include';
  const agents = isObject(doc.agents) ? Object.keys(doc.agents) : [];
  const includes = isObject(doc.includes) ? Object.keys(doc.includes) : [];
  const siblings = found.siblings.filter((s, i) => i !== found.index && isObject(s) && typeof s.id === 'string').map((s) => s.id);
  const deps = Array.isArray(step.dependsOn) ? step.dependsOn : [];
  const coalesce = (f: string) => `step.${stepKey}.${f}`;
  const set = (field: string) => (v: Json | undefined) => apply((d) => setStepField(d, stepKey, field, v), coalesce(field));
  const shows = (field: string) => !isInclude || step[field] !== undefined;

  const renameTo = (next: string) => {
    const s = store.getState();
    const renamed = renameStep(s.doc, stepKey, next);
    s.renameKey(stepKey, renamed.key);
    s.applyDoc(renamed.doc, { select: { kind: 'step', key: renamed.key } });
  };

  const isLoop = isObject(step.loop);
  const judgeLoop = isLoop && typeof (step.loop as JsonObject).untilAgent === 'string';
  const title =
    kind === 'forEach' ? 'forEach loop' : kind === 'repeat' ? (judgeLoop ? 'Judge loop (repeat-until)' : 'Repeat-until loop') : isInclude ? 'Include step' : 'Step';
  const deleteButton = (
    <button className="btn small danger ghost" onClick={() => store.getState().applyDoc(removeSteps(store.getState().doc, [stepKey]), { select: null })}>
      Delete
    </button>
  );
  const identity = (
    <>
      {found.scope && <p className="muted small">Inner step of loop “{found.scope}”.</p>}
      <Field field="id" label="Id" help={HELP['step.id']} problems={problems('id')}>
        <RenameInput field="id" mono value={str(step.id)} onRename={renameTo} />
      </Field>
    </>
  );
  const general = (
    <>
      {isInclude ? (
        <Field field="include" label="Include" help={HELP['step.include']} problems={problems('include')}>
          <TextInput field="include" mono value={str(step.include)} onChange={(v) => set('include')(v)} placeholder={includes[0] ?? 'workflows/sub.yaml'} />
          {includes.length > 0 && <div className="field-help">Named includes: {includes.join(', ')}</div>}
        </Field>
      ) : (
        <>
          <Field field="agent" label="Agent" help={HELP['step.agent']} problems={problems('agent')}>
            <SelectInput field="agent" value={typeof step.agent === 'string' ? step.agent : undefined} unsetLabel="(default agent)" options={agents.map((a) => ({ value: a, label: a }))} onChange={set('agent')} />
          </Field>
          <Field field="instructions" label="Instructions" help={HELP['step.instructions']} problems={problems('instructions')}>
            <TextInput field="instructions" multiline rows={5} value={str(step.instructions)} onChange={(v) => set('instructions')(optStr(v))} />
          </Field>
        </>
      )}
      <Field field="dependsOn" label="Depends on" help={HELP['step.dependsOn']} problems={problems('dependsOn')}>
        <div className="checks" id="f-dependsOn">
          {siblings.length === 0 && <span className="muted small">No other step in this scope.</span>}
          {siblings.map((id) => (
            <label key={id} className="check">
              <input
                type="checkbox"
                checked={deps.includes(id)}
                onChange={(e) => {
                  const next = e.target.checked ? [...deps, id] : deps.filter((d) => d !== id);
                  set('dependsOn')(next.length ? next : undefined);
                }}
              />
              <span className="mono">{id}</span>
            </label>
          ))}
          {deps.filter((d) => !siblings.includes(d)).map((d) => (
            <label key={`missing-${d}`} className="check missing" title="Not a step of this scope">
              <input type="checkbox" checked onChange={() => set('dependsOn')(deps.filter((x) => x !== d).length ? deps.filter((x) => x !== d) : undefined)} />
              <span className="mono">{d}</span>
            </label>
          ))}
        </div>
      </Field>
      {shows('condition') && (
        <Field field="condition" label="Condition (CEL)" help={HELP['step.condition']} problems={problems('condition')}>
          <CelInput value={str(step.condition)} variables={celVariables(doc, stepKey, 'condition')} id="f-condition" onChange={(v) => set('condition')(optStr(v))} placeholder="steps.plan.status == 'completed'" />
        </Field>
      )}
      <div className="grid2">
        <Field field="timeout" label="Timeout" help={HELP['step.timeout']} problems={problems('timeout')}>
          <TextInput field="timeout" mono value={str(step.timeout)} placeholder="10m" onChange={(v) => set('timeout')(optStr(v))} />
        </Field>
        <Field field="retries" label="Retries" help={HELP['step.retries']} problems={problems('retries')}>
          <NumberInput field="retries" integer value={step.retries} onChange={set('retries')} />
        </Field>
      </div>
      <Field field="maxRetries" label="Max tool-call retries" help={HELP['step.maxRetries']} problems={problems('maxRetries')}>
        <NumberInput field="maxRetries" integer value={step.maxRetries} onChange={set('maxRetries')} />
      </Field>
      {shows('model') && (
        <Field field="model" label="Model override" help={HELP['step.model']} problems={problems('model')}>
          <TextInput field="model" mono value={str(step.model)} onChange={(v) => set('model')(optStr(v))} />
        </Field>
      )}
      {shows('contextFiles') && (
        <Field field="contextFiles" label="Context files" help={HELP['step.contextFiles']} problems={problems('contextFiles')}>
          <ListInput field="contextFiles" value={step.contextFiles} placeholder="docs/architecture.md" onChange={(v) => set('contextFiles')(v)} />
        </Field>
      )}
    </>
  );

  // A loop's own settings come first: they are what makes it a loop.
  if (isLoop) {
    return (
      <div className="insp-body">
        <Section title={title} actions={deleteButton}>
          {identity}
        </Section>
        <LoopForm stepKey={stepKey} step={step} problems={problems} agents={agents} />
        <Section title="Step settings">{general}</Section>
      </div>
    );
  }

  return (
    <div className="insp-body">
      <Section title={title} actions={deleteButton}>
        {identity}
        {general}
      </Section>
      {!isInclude && !found.scope && (
        <div className="row">
          <button className="btn small ghost" onClick={() => apply((d) => setLoopField(d, stepKey, 'maxIterations', 3))}>
            Turn into a repeat-until loop
          </button>
        </div>
      )}
    </div>
  );
}

function LoopForm({ stepKey, step, problems, agents }: { stepKey: string; step: Step; problems: (f: string) => Diag[]; agents: string[] }) {
  const doc = useEditor((s) => s.doc);
  const apply = useApply();
  const loop: JsonObject = isObject(step.loop) ? step.loop : {};
  const isForEach = 'forEach' in loop;
  const set = (field: string) => (v: Json | undefined) => apply((d) => setLoopField(d, stepKey, field, v), `loop.${stepKey}.${field}`);
  const vars = (f: CelField) => celVariables(doc, stepKey, f);
  const judge = typeof loop.untilAgent === 'string' ? loop.untilAgent : undefined;
  const judgeAgent = judge && isObject(doc.agents) && isObject(doc.agents[judge]) ? doc.agents[judge] : null;
  const items = loop.forEach;
  const listMode = Array.isArray(items);
  const [keptUntil, setKeptUntil] = useState<string | null>(null);
  return (
    <Section title="Loop settings">
      <div className="segmented" role="group" aria-label="Loop mode">
        <button
          className={isForEach ? 'active' : ''}
          onClick={() =>
            !isForEach &&
            apply((d) => {
              let next = setLoopField(d, stepKey, 'forEach', ['first', 'second']);
              for (const f of ['maxIterations', 'until', 'untilAgent', 'delay']) next = setLoopField(next, stepKey, f, undefined);
              return next;
            })
          }
        >
          forEach
        </button>
        <button
          className={!isForEach ? 'active' : ''}
          onClick={() =>
            isForEach &&
            apply((d) => {
              let next = setLoopField(d, stepKey, 'forEach', undefined);
              next = setLoopField(next, stepKey, 'maxConcurrency', undefined);
              return setLoopField(next, stepKey, 'maxIterations', 3);
            })
          }
        >
          repeat-until
        </button>
      </div>
      {isForEach ? (
        <>
          <Field field="loop.forEach" label="Items" help={HELP['loop.forEach']} problems={problems('loop.forEach')}>
            <div className="segmented small" role="group" aria-label="Items source">
              <button className={listMode ? 'active' : ''} onClick={() => !listMode && set('forEach')(['first', 'second'])}>
                Static list
              </button>
              <button className={!listMode ? 'active' : ''} onClick={() => listMode && set('forEach')('steps.plan.result.items')}>
                CEL expression
              </button>
            </div>
            {listMode ? (
              <ItemsInput value={items as Json[]} onChange={(v) => set('forEach')(v)} />
            ) : (
              <CelInput value={str(items)} variables={vars('forEach')} id="f-loop.forEach" onChange={(v) => set('forEach')(v)} />
            )}
          </Field>
          <Field field="loop.maxConcurrency" label="Max concurrency" help={HELP['loop.maxConcurrency']} problems={problems('loop.maxConcurrency')}>
            <NumberInput field="loop.maxConcurrency" integer value={loop.maxConcurrency} placeholder="all" onChange={set('maxConcurrency')} />
          </Field>
        </>
      ) : (
        <>
          <Field field="loop.maxIterations" label="Max iterations" help={HELP['loop.maxIterations']} problems={problems('loop.maxIterations')}>
            <NumberInput field="loop.maxIterations" integer value={loop.maxIterations} onChange={set('maxIterations')} />
          </Field>
          <Field field="loop.until" label="Until (CEL)" help={HELP['loop.until']} problems={problems('loop.until')}>
            <CelInput value={str(loop.until)} variables={vars('until')} id="f-loop.until" testId="until-input" onChange={(v) => set('until')(optStr(v))} placeholder="steps.review.content.contains('LGTM')" />
          </Field>
          <Field field="loop.untilAgent" label="Judge agent" help={HELP['loop.untilAgent']} problems={problems('loop.untilAgent')}>
            <SelectInput field="loop.untilAgent" value={judge} unsetLabel="(no judge)" options={agents.map((a) => ({ value: a, label: a }))} onChange={set('untilAgent')} />
            {judge && typeof loop.until === 'string' && loop.until.trim() !== '' && keptUntil !== loop.until && (
              <div className="insp-note" data-testid="judge-until-offer" role="status">
                <p className="small">
                  {loop.until === PLACEHOLDER_UNTIL ? 'The placeholder ' : 'This '}
                  <code>until</code> still stops the loop too: it ends when <code>{truncateText(loop.until, 60)}</code> is true, before the judge is asked.
                </p>
                <button className="btn small" data-testid="clear-until" onClick={() => set('until')(undefined)}>
                  Clear until (let the judge decide)
                </button>{' '}
                <button className="btn small ghost" data-testid="keep-until" onClick={() => setKeptUntil(String(loop.until))}>
                  Keep both
                </button>
              </div>
            )}
            {judge && (!judgeAgent || !isJudge(judgeAgent)) && (
              <button className="btn small" onClick={() => apply((d) => makeJudge(d, judge))}>
                Make “{judge}” a judge (adds done/reason)
              </button>
            )}
          </Field>
          <Field field="loop.delay" label="Delay" help={HELP['loop.delay']} problems={problems('loop.delay')}>
            <TextInput field="loop.delay" mono value={str(loop.delay)} placeholder="10s" onChange={(v) => set('delay')(optStr(v))} />
          </Field>
        </>
      )}
      <IterationOutputNote loopKey={stepKey} step={step} cumulative={loop.outputMode === 'cumulative'} />
      <Field field="loop.outputMode" label="Output mode" help={HELP['loop.outputMode']} problems={problems('loop.outputMode')}>
        <SelectInput
          field="loop.outputMode"
          value={typeof loop.outputMode === 'string' ? loop.outputMode : undefined}
          unsetLabel="(default: last)"
          options={[
            { value: 'last', label: 'last' },
            { value: 'cumulative', label: 'cumulative' },
            { value: '', label: '"" (same as last)' },
          ]}
          onChange={set('outputMode')}
        />
      </Field>
      {problems('loop').filter((p) => targetOf(doc, p.path).kind === 'step').length > 0 && null}
    </Section>
  );
}

function truncateText(text: string, n: number): string {
  return text.length > n ? text.slice(0, n - 1) + '…' : text;
}

/** Which inner step's output each iteration hands on (the server's rule), and how to change it. */
function IterationOutputNote({ loopKey, step, cumulative }: { loopKey: string; step: Step; cumulative: boolean }) {
  const sources = useIterationSources(loopKey);
  const inner = isObject(step.loop) && Array.isArray(step.loop.steps) && step.loop.steps.length > 0;
  return (
    <div className="insp-note" data-testid="iteration-output-note">
      <p className="small">
        <strong>Iteration output:</strong>{' '}
        {inner ? (
          sources.length > 0 ? (
            <>
              the output of{' '}
              {sources.map((id, i) => (
                <span key={id}>
                  {i > 0 && ' + '}
                  <code>{id}</code>
                </span>
              ))}
              , the inner step{sources.length === 1 ? '' : 's'} no other inner step depends on.
              {' '}To hand on another step’s output, make it the last: let it depend on the others (e.g. critic → draft).
            </>
          ) : (
            'checking…'
          )
        ) : (
          'the loop step’s own reply.'
        )}{' '}
        {cumulative ? 'The loop’s output joins every iteration’s output (cumulative).' : 'The loop’s output is the last iteration’s.'}
      </p>
    </div>
  );
}

function ItemsInput({ value, onChange }: { value: Json[]; onChange: (v: Json[]) => void }) {
  const external = JSON.stringify(value, null, 1);
  const [text, setText] = useState(external);
  const [error, setError] = useState<string | null>(null);
  const focused = useRef(false);
  useEffect(() => {
    if (!focused.current) setText(external);
  }, [external]);
  return (
    <>
      <textarea
        id="f-loop.forEach"
        className="input mono"
        rows={3}
        value={text}
        onFocus={() => (focused.current = true)}
        onBlur={() => {
          focused.current = false;
          setText(external);
          setError(null);
        }}
        onChange={(e) => {
          setText(e.target.value);
          try {
            const parsed: unknown = JSON.parse(e.target.value);
            if (!Array.isArray(parsed)) throw new Error('a list is written [ ... ]');
            setError(null);
            onChange(parsed as Json[]);
          } catch (err) {
            setError(`Not a JSON list yet: ${err instanceof Error ? err.message : String(err)}`);
          }
        }}
      />
      {error && <div className="field-problem error">{error}</div>}
    </>
  );
}

function EdgePanel({ selection }: { selection: Extract<Selection, { kind: 'edge' }> }) {
  const store = useEditorStore();
  return (
    <div className="insp-body">
      <Section title="Dependency">
        <p>
          <code>{selection.target}</code> runs after <code>{selection.source}</code> and receives its output.
        </p>
        <button
          className="btn small danger"
          onClick={() => {
            const s = store.getState();
            s.applyDoc(disconnect(s.doc, selection.source, selection.target), { select: null });
          }}
        >
          Remove dependency
        </button>
        <p className="muted small">Tip: press Delete to remove the selected dependency.</p>
      </Section>
    </div>
  );
}
