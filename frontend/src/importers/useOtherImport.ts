// The state of the "import from another system" dialog: the source (typed, or read from a file), its kind and
// parameters, and the server's translation of it or the problem it found; "Open in editor" saves it.
import { useState } from 'react';
import { errorText } from '../api/client';
import { navigate } from '../router';
import { currentWorkspaceId } from '../workspaces/current';
import { importOther, saveImported, type ImportAnswer, type ImportKind } from './api';
import { pageProblem, problemOf, type ImportProblem } from './problem';
import { kindFromFileName, parametersOf } from './report';
import { useParamRows } from './useParamRows';

const MAX_FILE = 1024 * 1024;

export function useOtherImport(onClose: () => void) {
  const [kind, setKind] = useState<ImportKind>('runsight');
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [answer, setAnswer] = useState<ImportAnswer | null>(null);
  const [problem, setProblem] = useState<ImportProblem | null>(null);
  const [busy, setBusy] = useState<'translate' | 'open' | null>(null);

  // Any change makes the shown result stale.
  const changed = () => {
    setAnswer(null);
    setProblem(null);
  };
  const params = useParamRows(changed);

  const chooseKind = (k: ImportKind) => {
    changed();
    setKind(k);
  };

  const editText = (value: string) => {
    changed();
    setFileName(null);
    setText(value);
  };

  const translate = async () => {
    setBusy('translate');
    setProblem(null);
    setAnswer(null);
    try {
      const parameters = parametersOf(params.rows);
      const result = await importOther({ kind, source: text, parameters: Object.keys(parameters).length ? parameters : undefined });
      setAnswer(result);
    } catch (e) {
      setProblem(problemOf(e));
    } finally {
      setBusy(null);
    }
  };

  const openInEditor = async () => {
    if (!answer) return;
    setBusy('open');
    setProblem(null);
    try {
      const wf = await saveImported(answer, currentWorkspaceId());
      onClose();
      navigate(`/workflows/${wf.id}`);
    } catch (e) {
      setProblem({ ...problemOf(e), message: `Could not save the imported workflow: ${errorText(e)}` });
      setBusy(null);
    }
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    changed();
    if (file.size > MAX_FILE) {
      setProblem(pageProblem(`${file.name} is larger than 1 MiB, the limit of a workflow file.`));
      return;
    }
    try {
      const content = await file.text();
      setText(content);
      setFileName(file.name);
      const guessed = kindFromFileName(file.name);
      if (guessed) setKind(guessed);
    } catch (e) {
      setProblem(pageProblem(`Could not read ${file.name}: ${errorText(e)}`));
    }
  };

  return { kind, chooseKind, text, editText, fileName, onFile, params, answer, problem, busy, translate, openInEditor };
}
