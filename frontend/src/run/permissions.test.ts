import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PERMISSIONS,
  isThinkingLevel,
  permissionsBlock,
  permissionsForRequest,
  permissionsFromRun,
  permissionsProblem,
  permissionsSet,
  permissionsWords,
  thinkingWords,
} from './permissions';

describe('a run’s permission mode in the request', () => {
  it('sends nothing for the default', () => {
    expect(permissionsForRequest(DEFAULT_PERMISSIONS)).toBeUndefined();
    expect(permissionsForRequest(null)).toBeUndefined();
    expect(permissionsSet(DEFAULT_PERMISSIONS)).toBe(false);
  });

  it('sends each mode as upstream’s flag, with the lists', () => {
    expect(permissionsForRequest({ mode: 'strict', allow: ['read'], deny: ['bash'] })).toEqual({ allow: ['read'], deny: ['bash'], strict: true });
    expect(permissionsForRequest({ mode: 'sandbox', allow: [], deny: ['write'] })).toEqual({ deny: ['write'], sandbox: true });
    expect(permissionsForRequest({ mode: 'ask', allow: ['grep'], deny: [] })).toEqual({ allow: ['grep'] });
  });

  it('leaves the allow list out with yolo, where it says nothing', () => {
    expect(permissionsForRequest({ mode: 'yolo', allow: ['read'], deny: ['bash'] })).toEqual({ deny: ['bash'], yolo: true });
  });

  it('refuses a tool both allowed and denied, and warns of strict with nothing allowed', () => {
    const both = { mode: 'ask' as const, allow: ['bash', 'read'], deny: ['bash'] };
    expect(permissionsProblem(both)).toMatch(/bash cannot be both allowed and denied/);
    expect(permissionsBlock(both)).toBe(true);
    const none = { mode: 'strict' as const, allow: [], deny: [] };
    expect(permissionsProblem(none)).toMatch(/allow at least one/);
    expect(permissionsBlock(none)).toBe(false);
    expect(permissionsProblem({ mode: 'strict', allow: ['read'], deny: ['bash'] })).toBeNull();
  });
});

describe('a run record’s permissions read back', () => {
  it('gives the dialog one mode, the wider rule first', () => {
    expect(permissionsFromRun({ strict: true, allow: ['read'], deny: ['bash'] })).toEqual({ mode: 'strict', allow: ['read'], deny: ['bash'] });
    expect(permissionsFromRun({ sandbox: true, strict: true })).toMatchObject({ mode: 'sandbox' });
    expect(permissionsFromRun({ yolo: true })).toMatchObject({ mode: 'yolo' });
    expect(permissionsFromRun({})).toEqual(DEFAULT_PERMISSIONS);
    expect(permissionsFromRun(null)).toEqual(DEFAULT_PERMISSIONS);
    expect(permissionsFromRun({ allow: ['read', 3] })).toEqual({ mode: 'ask', allow: ['read'], deny: [] });
  });

  it('says in words what the run used, and nothing for the default', () => {
    expect(permissionsWords({ strict: true, allow: ['read', 'grep'], deny: ['bash'] })).toBe('strict · allows read, grep · denies bash');
    expect(permissionsWords({ sandbox: true })).toBe('sandbox');
    expect(permissionsWords({ yolo: true })).toBe('approves every tool');
    expect(permissionsWords({})).toBeNull();
    expect(permissionsWords(undefined)).toBeNull();
  });
});

describe('reasoning levels', () => {
  it('knows upstream’s four levels and says them', () => {
    expect(['off', 'low', 'medium', 'high'].every(isThinkingLevel)).toBe(true);
    expect(isThinkingLevel('max')).toBe(false);
    expect(thinkingWords('high')).toBe('reasoning high');
    expect(thinkingWords('off')).toBe('reasoning off');
    expect(thinkingWords(null)).toBeNull();
  });
});
