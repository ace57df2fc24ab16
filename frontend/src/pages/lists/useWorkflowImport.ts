// Importing into the workflows list: a file (YAML or JSON; a .zip is a folder), or a folder. A file whose
// workflow name is taken first asks whether it is a new version of that workflow (ImportClashDialog).
import { useState } from 'react';
import { api, errorText } from '../../api/client';
import { navigate } from '../../router';
import type { ImportClash } from './ImportClashDialog';

/** `workspace`: where imports go; `setError`: shows (or, with null, clears) the page's error. */
export function useWorkflowImport(workspace: number | null, setError: (error: string | null) => void) {
  // A folder (or a .zip of one) to import: the dialog asks for its main workflow.
  const [bundle, setBundle] = useState<{ initial?: File } | null>(null);
  // A file whose workflow name is taken: ask whether it is a new version of that one or another workflow.
  const [clash, setClash] = useState<ImportClash | null>(null);

  const importFile = async (f: File | undefined, into?: number) => {
    if (!f) return;
    setError(null);
    try {
      const wf = await api.importFile(f, into, workspace);
      navigate(`/workflows/${wf.id}`);
    } catch (e) {
      setError(`Could not import ${f.name}: ${errorText(e)}`);
    }
  };

  const chooseImport = async (f: File | undefined) => {
    if (!f) return;
    if (f.name.toLowerCase().endsWith('.zip')) {
      setBundle({ initial: f });
      return;
    }
    let name: unknown = null;
    try {
      const checked = await api.validate({ source: await f.text() });
      name = checked.document?.name;
    } catch {
      name = null; // the import itself reports what is wrong with the file
    }
    // Asked of the server: the page shows one page of the list, perhaps filtered.
    const same = typeof name === 'string' && name.trim() ? await api.workflowPage({ workspace, q: name, limit: 200 }).catch(() => null) : null;
    const existing = same?.items.find((w) => w.name === name);
    if (existing) setClash({ file: f, existing });
    else await importFile(f);
  };

  /** The clash answered (or cancelled, with no file): the file imported as asked. */
  const resolveClash = (f?: File, into?: number) => {
    setClash(null);
    if (f) void importFile(f, into);
  };

  return { chooseImport, clash, resolveClash, bundle, openBundle: setBundle };
}
