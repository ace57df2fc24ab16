// A simulated script where a run or a fork is started: the editor, a link to the format, and what the
// server says of it as it is typed (a fault, or keys that name no step, agent or coordinator: their
// replies would go unused, the agent getting a placeholder instead).
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { yaml as yamlLang } from '@codemirror/lang-yaml';
import { api, errorText } from '../api/client';
import { CodeEditor } from '../components/CodeEditor';

/** Where the script format is written down (docs/simulated-scripts.md, served as it is). */
export const SCRIPT_HELP_URL = '/help/simulated-scripts/';
/** Typing pauses this long before the server is asked: one check per pause, not per key. */
const CHECK_AFTER_MS = 400;

interface Said {
  key: string;
  warnings: string[];
  error: string | null;
}

/** What the server says of `script` for `document`; null until it has answered for this text. */
function useScriptCheck(script: string, document: unknown): Said | null {
  const [said, setSaid] = useState<Said | null>(null);
  const key = useMemo(() => `${script}\u0000${JSON.stringify(document ?? null)}`, [script, document]);
  useEffect(() => {
    if (!script.trim()) return;
    const ctl = new AbortController();
    const timer = window.setTimeout(() => {
      api.checkScript(script, document, ctl.signal).then(
        (answer) => setSaid({ key, warnings: answer.warnings, error: null }),
        (e) => {
          if (!ctl.signal.aborted) setSaid({ key, warnings: [], error: errorText(e) });
        },
      );
    }, CHECK_AFTER_MS);
    return () => {
      window.clearTimeout(timer);
      ctl.abort();
    };
  }, [key, script, document]);
  return said?.key === key ? said : null;
}

export function ScriptField({
  value,
  onChange,
  document,
  testId,
  children,
}: {
  value: string;
  onChange: (text: string) => void;
  /** The workflow the script is for: its step ids and agents are the keys a script may use. */
  document: unknown;
  /** The editor's data-testid; the warnings are `${testId}-warnings`. */
  testId: string;
  /** Under the editor (a reset button). */
  children?: ReactNode;
}) {
  const extensions = useMemo(() => [yamlLang()], []);
  const said = useScriptCheck(value, document);
  return (
    <div className="field">
      <span className="field-label">Script</span>
      <div className="field-help">
        What each agent replies, in order, keyed by namespaced id, step id, agent name or <code>*</code>. A judge reply sets{' '}
        <code>result: {'{done, reason}'}</code>.{' '}
        <a href={SCRIPT_HELP_URL} target="_blank" rel="noreferrer" data-testid={`${testId}-help`}>
          The script format
        </a>
      </div>
      <CodeEditor value={value} onChange={onChange} extensions={extensions} lineNumbers className="cm-script" ariaLabel="Simulation script" testId={testId} />
      {said && (said.error || said.warnings.length > 0) && (
        <ul className="script-problems" role="status" data-testid={`${testId}-warnings`}>
          {said.error && <li className="field-problem error">{said.error}</li>}
          {said.warnings.map((w) => (
            <li key={w} className="field-problem warning">
              {w}
            </li>
          ))}
        </ul>
      )}
      {children}
    </div>
  );
}
