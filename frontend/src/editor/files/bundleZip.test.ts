import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { isLitter, zipFiles } from './bundleZip';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('a folder as a zip', () => {
  it('keeps every file at its relative path and leaves litter out', () => {
    const zip = zipFiles([
      { path: 'examples/include-reuse.yaml', data: bytes('name: x') },
      { path: 'examples/workflows/deploy.yaml', data: bytes('steps: []') },
      { path: 'examples/.git/config', data: bytes('x') },
      { path: 'examples/.DS_Store', data: bytes('x') },
    ]);
    const back = unzipSync(zip);
    expect(Object.keys(back).sort()).toEqual(['examples/include-reuse.yaml', 'examples/workflows/deploy.yaml']);
    expect(new TextDecoder().decode(back['examples/workflows/deploy.yaml'])).toBe('steps: []');
  });

  it('knows litter by any part of its path', () => {
    expect(isLitter('a/__MACOSX/b')).toBe(true);
    expect(isLitter('a/node_modules/x.js')).toBe(true);
    expect(isLitter('prompts/coder.md')).toBe(false);
  });
});
