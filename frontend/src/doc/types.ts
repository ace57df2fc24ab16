// The zenflow v1 document as the browser holds it. Documents come from the
// server (which parsed them) and may be invalid, so every reader guards its
// input; nothing here is a validation rule.

export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json | undefined;
}

export interface Loop extends JsonObject {
  forEach?: string | Json[];
  maxConcurrency?: number;
  maxIterations?: number;
  until?: string;
  untilAgent?: string;
  delay?: string;
  outputMode?: '' | 'last' | 'cumulative';
  steps?: Step[];
}

export interface Step extends JsonObject {
  id: string;
  agent?: string;
  instructions?: string;
  dependsOn?: string[];
  contextFiles?: string[];
  model?: string;
  timeout?: string;
  retries?: number;
  maxRetries?: number;
  condition?: string;
  include?: string;
  loop?: Loop;
}

export interface Agent extends JsonObject {
  description?: string;
  prompt?: string;
  model?: string;
  tools?: string[];
  disallowedTools?: string[];
  maxTurns?: number;
  temperature?: number;
  topP?: number;
  resultSchema?: JsonObject;
}

export interface Options extends JsonObject {
  maxConcurrency?: number;
  onStepFailure?: 'cascade' | 'skip-dependents' | 'abort';
  timeout?: string;
  stepTimeout?: string;
  isolation?: string;
  scheduler?: 'dependency-first' | 'round-robin' | 'least-busy';
  maxRetries?: number;
}

export interface WorkflowDoc extends JsonObject {
  name: string;
  description?: string;
  version?: number;
  agents?: Record<string, Agent>;
  includes?: Record<string, string>;
  steps: Step[];
  options?: Options;
}

export interface Position {
  x: number;
  y: number;
}

/** Saved beside the document as the workflow's `layout`; never in the YAML. */
export interface Layout {
  version: 1;
  positions: Record<string, Position>;
}

export function emptyLayout(): Layout {
  return { version: 1, positions: {} };
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isLayout(value: unknown): value is Layout {
  return isObject(value) && isObject(value.positions);
}

/** A deep copy through JSON: documents are plain JSON data. */
export function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => deepEqual(v, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}
