import { setAgent, uniqueAgentName } from '../../doc/ops';
import { isObject } from '../../doc/types';
import { Section } from '../../forms/fields';
import { NO_FIELDS } from '../../forms/values';
import { useEditor, useEditorStore } from '../../store/context';
import { AgentForm } from './AgentForm';

/**
 * The document's agents as chips; the chosen one opens below. The chips stay usable for a role that cannot
 * edit (to read each agent); what changes the document sits in the read-only fieldset.
 */
export function AgentsPanel({ selected }: { selected: string | null }) {
  const agents = useEditor((s) => (isObject(s.doc.agents) ? s.doc.agents : NO_FIELDS));
  const readOnly = useEditor((s) => s.readOnly);
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
            disabled={readOnly}
            title={readOnly ? 'Read only: your role cannot change this workflow' : undefined}
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
      {current && (
        <fieldset disabled={readOnly} className="insp-fieldset">
          <AgentForm key={current} name={current} />
        </fieldset>
      )}
    </div>
  );
}
