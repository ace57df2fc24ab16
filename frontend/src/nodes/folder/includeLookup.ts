// Where an include step's workflow comes from, and that workflow's document: a file of the folder (read and
// parsed by the server), else a saved workflow of that name (main workflow only, as GET /includes says).
// Cached per workflow version: every include node on the canvas asks, and a version never changes.
import { api, errorText } from '../../api/client';
import { isObject, type Json, type Step, type WorkflowDoc } from '../../doc/types';
import { folderApi, type FolderFile, type IncludeTarget } from './folderApi';
import { dirOf, joinPath } from './folderPaths';

export type Resolved = { kind: 'file'; file: string } | { kind: 'saved'; workflowId: number; name: string } | { kind: 'missing'; message: string };

export interface IncludedDoc {
  doc: WorkflowDoc | null;
  /** Why there is no document to show (the file does not parse, cannot be read). */
  problem: string | null;
}

/** Where include references are looked up: this workflow's folder, seen from `baseFile` (null: the main file). */
export interface LookupScope {
  workflowId: number;
  version: number | null;
  baseFile: string | null;
  includes: Json | undefined;
}

const cache = new Map<string, Promise<unknown>>();

function cached<T>(key: string, make: () => Promise<T>): Promise<T> {
  let hit = cache.get(key) as Promise<T> | undefined;
  if (!hit) {
    hit = make();
    // A failed lookup is asked again next time rather than remembered.
    hit.catch(() => cache.delete(key));
    cache.set(key, hit);
  }
  return hit;
}

const at = (version: number | null) => version ?? undefined;

export function folderListing(workflowId: number, version: number | null): Promise<FolderFile[]> {
  return cached(`list:${workflowId}:${version}`, () => folderApi.list(workflowId, at(version)));
}

export function includeTargets(workflowId: number, version: number | null): Promise<IncludeTarget[]> {
  return cached(`targets:${workflowId}:${version}`, () => folderApi.includes(workflowId, at(version)));
}

export function includedDoc(workflowId: number, version: number | null, file: string): Promise<IncludedDoc> {
  return cached(`doc:${workflowId}:${version}:${file}`, async () => {
    try {
      const content = await folderApi.read(workflowId, file, at(version));
      if (content.text === null) return { doc: null, problem: `${file} is not a text file.` };
      const checked = await api.validate({ source: content.text });
      if (!checked.document) return { doc: null, problem: `${file} does not parse: ${checked.errors[0]?.message ?? 'not a workflow'}` };
      return { doc: checked.document, problem: null };
    } catch (e) {
      return { doc: null, problem: errorText(e) };
    }
  });
}

/** The path an include step names: a name of the `includes` map, or a path itself. */
export function includeRef(includes: Json | undefined, name: string): string {
  return isObject(includes) && typeof includes[name] === 'string' ? (includes[name] as string) : name;
}

/** What an include step runs, by the rule a run follows: the folder's file, else a saved workflow of that name. */
export async function resolveInclude(scope: LookupScope, step: Step): Promise<Resolved> {
  const name = typeof step.include === 'string' ? step.include : '';
  if (!name) return { kind: 'missing', message: 'The step names no workflow to include.' };
  const files = await folderListing(scope.workflowId, scope.version);
  const base = scope.baseFile ?? files.find((f) => f.main)?.path ?? '';
  const ref = includeRef(scope.includes, name);
  const file = joinPath(dirOf(base), ref);
  if (file === null) return { kind: 'missing', message: `${ref} is outside the workflow's folder.` };
  if (files.some((f) => f.path === file)) return { kind: 'file', file };
  if (scope.baseFile === null) {
    const targets = await includeTargets(scope.workflowId, scope.version);
    const saved = targets.find((t) => t.step === step.id && t.kind === 'saved');
    if (saved?.workflow_id) return { kind: 'saved', workflowId: saved.workflow_id, name: saved.name ?? ref };
  }
  return { kind: 'missing', message: `No file ${file} in the workflow's folder.` };
}

/** "3 steps: build, test, ship": an included workflow's top-level steps, folded into one line. */
export function stepsSummary(doc: { steps?: unknown } | null): string {
  const steps = doc && Array.isArray(doc.steps) ? doc.steps : [];
  const ids = steps.map((s) => (isObject(s) && typeof s.id === 'string' ? s.id : '?'));
  if (!ids.length) return 'no steps';
  const shown = ids.length > 4 ? [...ids.slice(0, 4), '…'] : ids;
  return `${ids.length} ${ids.length === 1 ? 'step' : 'steps'}: ${shown.join(', ')}`;
}
