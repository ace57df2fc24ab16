// Files the editor hands to the browser (exports).
import type { WorkflowDoc } from '../doc/types';

/** Makes the browser save `text` as a file called `name`. */
export function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The file name an export takes from the workflow's name. */
export function fileBase(doc: WorkflowDoc): string {
  const name = typeof doc.name === 'string' && doc.name.trim() ? doc.name.trim() : 'workflow';
  return name.replace(/[^A-Za-z0-9_.-]+/g, '-');
}

