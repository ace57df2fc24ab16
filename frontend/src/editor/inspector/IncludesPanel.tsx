import { useState } from 'react';
import { setInclude } from '../../doc/ops';
import { isObject, type Json } from '../../doc/types';
import { ProblemLines, Section, TextInput } from '../../forms/fields';
import { HELP } from '../../forms/help';
import { useApplyDoc } from '../../forms/useApplyDoc';
import { useFieldProblems } from '../../forms/useFieldProblems';
import { NO_FIELDS, str } from '../../forms/values';
import { useEditor } from '../../store/context';
import { IncludeTargets } from '../files/IncludeTargets';

/** The named sub-workflows, each with the server's problems about it. */
export function IncludesPanel() {
  const includes = useEditor((s) => (isObject(s.doc.includes) ? (s.doc.includes as Record<string, Json>) : NO_FIELDS));
  const apply = useApplyDoc();
  const problems = useFieldProblems({ kind: 'includes' });
  const [name, setName] = useState('');
  return (
    <div className="insp-body">
      <Section title="Includes">
        <p className="field-help">{HELP.includes}</p>
        <IncludeTargets />
        {Object.keys(includes).length === 0 && <p className="muted small">No includes yet.</p>}
        {Object.entries(includes).map(([k, v]) => (
          <div className="include-row" key={k} data-field={`includes.${k}`}>
            <code className="include-name">{k}</code>
            <TextInput field={`include-${k}`} mono value={str(v)} onChange={(p) => apply((d) => setInclude(d, k, p), `inc.${k}`)} />
            <button className="icon-btn" title={`Remove include ${k}`} onClick={() => apply((d) => setInclude(d, k, undefined))}>
              ×
            </button>
            {problems(k).length > 0 && (
              <div className="include-problems" data-testid={`include-problems-${k}`}>
                <ProblemLines problems={problems(k)} />
              </div>
            )}
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
