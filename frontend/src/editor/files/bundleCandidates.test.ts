import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { mainCandidates, withoutTopFolder, zipPaths } from './bundleCandidates';

describe('main workflow candidates', () => {
  it('reads a folder zipped whole as its contents and offers top-level workflow files', () => {
    const paths = ['examples/include-reuse.yaml', 'examples/minimal.yml', 'examples/workflows/deploy.yaml', 'examples/README.md', 'examples/.DS_Store'];
    expect(withoutTopFolder(paths)).toEqual(['include-reuse.yaml', 'minimal.yml', 'workflows/deploy.yaml', 'README.md']);
    expect(mainCandidates(paths)).toEqual(['include-reuse.yaml', 'minimal.yml']);
  });

  it('keeps paths as they are when files sit at the top', () => {
    expect(mainCandidates(['flow.json', 'prompts/a.md'])).toEqual(['flow.json']);
  });

  it('lists a zip without inflating it', () => {
    const zip = zipSync({ 'a/flow.yaml': new TextEncoder().encode('steps: []'), 'a/p/x.md': new Uint8Array(3) });
    expect(zipPaths(zip).sort()).toEqual(['a/flow.yaml', 'a/p/x.md']);
  });
});
