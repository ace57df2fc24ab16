// JSON pointers (the `path` of a server diagnostic) to the thing the editor can
// select, and back. Reading only: the server decides what is wrong.

import { innerSteps, joinKey, localKeys } from './keys';
import { isObject, type Step, type WorkflowDoc } from './types';

export type Target =
  | { kind: 'workflow'; field: string }
  | { kind: 'step'; key: string; field: string }
  | { kind: 'agent'; name: string; field: string }
  | { kind: 'options'; field: string }
  | { kind: 'includes'; name: string };

export function parsePointer(pointer: string): string[] {
  if (!pointer || pointer === '/') return [];
  return pointer
    .replace(/^\//, '')
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function toPointer(tokens: (string | number)[]): string {
  if (tokens.length === 0) return '';
  return '/' + tokens.map((t) => String(t).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

/** What a diagnostic path points at, as precisely as the document allows. */
export function targetOf(doc: WorkflowDoc | null, pointer: string): Target {
  const tokens = parsePointer(pointer);
  const head = tokens[0] ?? '';
  if (head === 'agents' && tokens.length >= 2) {
    return { kind: 'agent', name: tokens[1], field: tokens.slice(2).join('.') };
  }
  if (head === 'options') return { kind: 'options', field: tokens.slice(1).join('.') };
  if (head === 'includes' && tokens.length >= 2) return { kind: 'includes', name: tokens[1] };
  if (head === 'steps' && doc && Array.isArray(doc.steps) && tokens.length >= 2) {
    let steps: Step[] = doc.steps;
    let scope = '';
    let i = 1;
    let key = '';
    while (i < tokens.length) {
      const index = Number(tokens[i]);
      if (!Number.isInteger(index) || index < 0 || index >= steps.length) break;
      key = joinKey(scope, localKeys(steps)[index]);
      const step = steps[index];
      const rest = tokens.slice(i + 1);
      const inner = isObject(step) ? innerSteps(step) : null;
      if (rest[0] === 'loop' && rest[1] === 'steps' && rest.length >= 3 && inner) {
        steps = inner;
        scope = key;
        i += 3;
        continue;
      }
      return { kind: 'step', key, field: rest.join('.') };
    }
    if (key) return { kind: 'step', key, field: '' };
  }
  return { kind: 'workflow', field: tokens.join('.') };
}

/** The JSON pointer of the step with this key (for matching diagnostics). */
export function pointerOfKey(doc: WorkflowDoc, key: string): string | null {
  const walk = (steps: Step[], scope: string, prefix: (string | number)[]): string | null => {
    const keys = localKeys(steps);
    for (let i = 0; i < steps.length; i++) {
      const k = joinKey(scope, keys[i]);
      if (k === key) return toPointer([...prefix, i]);
      const inner = isObject(steps[i]) ? innerSteps(steps[i]) : null;
      if (inner && key.startsWith(k + '/')) return walk(inner, k, [...prefix, i, 'loop', 'steps']);
    }
    return null;
  };
  return Array.isArray(doc.steps) ? walk(doc.steps, '', ['steps']) : null;
}
