// types.ts aliases the generated schemas (openapi.gen.ts); a shape declared there by hand, under a schema's name,
// is a copy that drifts from the server unnoticed. This keeps such copies from coming back.
import { describe, expect, it } from 'vitest';
import type { RunOut } from './openapi.gen';
import openapi from './openapi.json';
import type { Narrowed } from './types';
import types from './types.ts?raw';

/** The schemas the OpenAPI document declares: `RunOut`, `WorkflowSummary` ... (openapi.gen.ts's root types). */
const SCHEMAS = Object.keys(openapi.components.schemas);

/**
 * The object shapes `source` declares whose name is a schema's, or a schema's without its `Out` (`Run` for
 * `RunOut`): `interface Name` or `type Name = {`. An alias of the schema (`type Run = RunOut`) is none.
 */
export function handWrittenSchemas(source: string, schemas: readonly string[]): string[] {
  const names = new Set(schemas.flatMap((s) => [s, s.replace(/Out$/, '')]));
  const declared = [...source.matchAll(/^\s*(?:export\s+)?(?:interface\s+(\w+)|type\s+(\w+)\s*(?:<[^=]*>)?\s*=\s*\{)/gm)].map((m) => m[1] ?? m[2]);
  return declared.filter((name) => names.has(name));
}

// An override only narrows a field the schema has (npm run typecheck fails if either of these compiles).
export type Contradicts = Narrowed<
  RunOut,
  // @ts-expect-error: a run's budgets are a mapping, never text.
  { budgets: string }
>;
export type Invents = Narrowed<
  RunOut,
  // @ts-expect-error: a run has no `owner`.
  { owner: string }
>;

describe('types.ts', () => {
  it('declares no schema of the OpenAPI document by hand', () => {
    expect(SCHEMAS).toContain('RunOut');
    expect(handWrittenSchemas(types, SCHEMAS)).toEqual([]);
  });

  it('would see a copy, as an interface or an object type, under the name or without its Out', () => {
    const copies = [
      'export interface RunOut {\n  id: string;\n}',
      'interface WorkflowSummary extends Base {}',
      'export type Iteration = {\n  step_id: string;\n};',
      'export type Run = RunOut;',
      'export type Budgets = { max_tokens?: number };',
    ].join('\n');
    expect(handWrittenSchemas(copies, SCHEMAS)).toEqual(['RunOut', 'WorkflowSummary', 'Iteration']);
  });
});
