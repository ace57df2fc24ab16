import { useContext, useRef } from 'react';
import { agentUsers, isJudge, makeJudge, removeAgent, renameAgent, setAgentField } from '../../doc/ops';
import { isObject, type Json, type JsonObject } from '../../doc/types';
import { Field, NumberInput, RenameInput, Section, TextInput } from '../../forms/fields';
import { HELP } from '../../forms/help';
import { useApplyDoc } from '../../forms/useApplyDoc';
import { useFieldProblems } from '../../forms/useFieldProblems';
import { NO_FIELDS, optStr, str } from '../../forms/values';
import { useEditor, useEditorStore } from '../../store/context';
import { focusPlace, restoreFocus } from '../../nodes/common/keepFocus';
import { AtFileLink } from '../../nodes/folder/FileLinks';
import { AgentToolsFields } from './AgentToolsFields';
import { JsonInput } from './JsonInput';
import { ModelChoicesContext } from '../ModelChoices';
import { choiceLabel } from './modelChoices';

export function AgentForm({ name }: { name: string }) {
  const agent: JsonObject = useEditor((s) => (isObject(s.doc.agents) && isObject(s.doc.agents[name]) ? s.doc.agents[name] : NO_FIELDS));
  const users = useEditor((s) => agentUsers(s.doc, name));
  const store = useEditorStore();
  const apply = useApplyDoc();
  const problems = useFieldProblems({ kind: 'agent', name });
  const set = (field: string) => (v: Json | undefined) => apply((d) => setAgentField(d, name, field, v), `agent.${name}.${field}`);
  const judge = isJudge(agent);
  const choices = useContext(ModelChoicesContext); // the workspace's runnable models, with prices (GET /models)
  // A rename re-keys this form (AgentsPanel): focus goes on to where Tab was taking it, not to the page body.
  const headed = useRef(-1);
  return (
    <Section title={`Agent “${name}”`}>
      <Field field="name" label="Name" help={HELP['agent.name']} problems={problems('')}>
        <div onBlurCapture={(e) => (headed.current = focusPlace(e.currentTarget.closest('[data-testid=inspector]'), e.relatedTarget))}>
          <RenameInput
            field="name"
            value={name}
            onRename={(next) => {
              const s = store.getState();
              s.applyDoc(renameAgent(s.doc, name, next), { select: { kind: 'agent', name: next } });
              restoreFocus('[data-testid=inspector]', headed.current, '#f-name');
            }}
          />
        </div>
      </Field>
      <Field field="description" label="Description" help={HELP['agent.description']} problems={problems('description')}>
        <TextInput field="description" multiline rows={2} value={str(agent.description)} onChange={(v) => set('description')(v)} />
      </Field>
      <Field field="prompt" label="System prompt" help={HELP['agent.prompt']} problems={problems('prompt')}>
        <TextInput field="prompt" multiline rows={4} value={str(agent.prompt)} onChange={(v) => set('prompt')(optStr(v))} />
        <AtFileLink value={agent.prompt} />
      </Field>
      <Field field="model" label="Model" help={HELP['agent.model']} problems={problems('model')}>
        <TextInput field="model" mono value={str(agent.model)} placeholder="e.g. google/gemini-2.5-flash" list={choices.length ? 'agent-model-choices' : undefined} onChange={(v) => set('model')(optStr(v))} />
        {choices.length > 0 && (
          <datalist id="agent-model-choices" data-testid="agent-model-choices">
            {choices.map((c) => (
              <option key={c.model} value={c.model} label={choiceLabel(c)} />
            ))}
          </datalist>
        )}
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
      <AgentToolsFields agent={agent} set={set} problems={problems} />
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
