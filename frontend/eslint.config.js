// ESLint for the front end: the recommended JavaScript, TypeScript and React
// hooks rules, and the direction of imports between folders. tsc checks the
// types (npm run typecheck); this checks the rest.
//
// typescript-eslint reads sources with the TypeScript 6 API (the `typescript`
// package); the compiler that checks and builds is TypeScript 7
// (`typescript-7`), which has no JavaScript API for it to use.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** The run view's own modules; the run model (reduce, labels, socket, policies ...) sits below everything that draws. */
const RUN_VIEW = 'run/(RunPage|RunHeader|RunControls|RunSide|RunFigures|LivePanel|DetailsPanel|MetricsPanel|EventsPanel|EventLog|StepDetails|VerdictList|LoopOutput|Pre|PoliciesForm|useRunLoader|useShownStatus|ToolCallList|ToolsPanel|PendingApprovals|SandboxWarning|WorkspacePanel|SnapshotList|FileTree|FileViewer|ChangesView|useRunWorkspace|useSnapshotData|big|rounds|compare|fork|view/useRunView)';
const UI = ['pages', 'editor', 'canvas', RUN_VIEW];

/** Imports that would run back up a layer: each folder (a regular expression on the import path) is above this one. */
function forbid(...folders) {
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: folders.map((folder) => ({
          regex: `(^|/)${folder}(/|$)`,
          message: `imports go one way: ${folder === RUN_VIEW ? 'the run view' : `${folder}/`} sits above this module`,
        })),
      },
    ],
  };
}

export default defineConfig(
  { ignores: ['dist/', 'node_modules/'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommended,
  reactHooks.configs.flat.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      // Every hook dependency list is complete: a missing one is a stale value.
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Layers, lowest first: api, doc, format, graph, layout | store | components, forms | nodes | canvas |
  // run view, editor | pages. Tests may reach any layer.
  ...[
    { files: ['src/{api,doc,format,graph,layout}/**'], rules: forbid(...UI, 'nodes', 'store', 'forms', 'components') },
    { files: ['src/store/**'], rules: forbid(...UI, 'nodes', 'forms', 'components') },
    { files: ['src/{components,forms}/**'], rules: forbid(...UI, 'nodes') },
    { files: ['src/nodes/**'], rules: forbid(...UI) },
    { files: ['src/canvas/**'], rules: forbid('pages', 'editor', RUN_VIEW) },
    { files: ['src/run/**'], rules: forbid('pages', 'editor') },
    { files: ['src/editor/**'], rules: forbid('pages') },
  ].map((layer) => ({ ...layer, ignores: ['**/*.test.ts'] })),
);
