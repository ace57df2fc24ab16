import { describe, expect, it } from 'vitest';
import { assignableRoles, canRemove, cannotEditReason, cannotRunReason, capabilities, invitableRoles, readOnlyReason, roleFallsShort } from './roles';

describe('role capabilities', () => {
  it('orders owner > admin > editor > runner > viewer', () => {
    const table = (['owner', 'admin', 'editor', 'runner', 'viewer'] as const).map((r) => {
      const c = capabilities(r);
      return [r, c.read, c.run, c.edit, c.manage, c.own];
    });
    expect(table).toEqual([
      ['owner', true, true, true, true, true],
      ['admin', true, true, true, true, false],
      ['editor', true, true, true, false, false],
      ['runner', true, true, false, false, false],
      ['viewer', true, false, false, false, false],
    ]);
  });

  it('holds nothing back when the role is not known (an older server): the server still decides', () => {
    for (const role of [undefined, null, '', 'superhero']) {
      expect(capabilities(role)).toMatchObject({ known: false, run: true, edit: true, manage: true });
    }
  });

  it('says why a document is read only, and whether Run stays', () => {
    expect(readOnlyReason('viewer', 'Acme')).toMatch(/^Read-only: your role in Acme is viewer/);
    expect(readOnlyReason('viewer', 'Acme')).toContain('not change or run it');
    expect(readOnlyReason('runner', 'Acme')).toMatch(/^Read-only: your role in Acme is runner: you can run/);
    expect(readOnlyReason('editor', 'Acme')).toBeNull();
    expect(readOnlyReason('', 'Acme')).toBeNull();
    expect(cannotRunReason('viewer', 'Acme')).toContain('viewer');
    expect(cannotRunReason('runner')).toBeNull();
    expect(cannotEditReason('runner', 'Acme')).toContain('editor or above');
    expect(cannotEditReason('editor')).toBeNull();
  });

  it('names the action and the least role it needs', () => {
    expect(roleFallsShort('viewer', 'Acme', 'run', 'running experiments')).toBe('Your role in Acme is viewer: running experiments needs runner or above.');
    expect(roleFallsShort('runner', '', 'edit', 'making datasets')).toBe('Your role is runner: making datasets needs editor or above.');
    expect(roleFallsShort('runner', 'Acme', 'run', 'running experiments')).toBeNull();
    expect(roleFallsShort(null, 'Acme', 'manage', 'anything')).toBeNull();
  });
});

describe('managing members', () => {
  it('lets owners give any role and admins manage only editors, runners and viewers', () => {
    expect(assignableRoles('owner', 'viewer', 1)).toEqual(['owner', 'admin', 'editor', 'runner', 'viewer']);
    expect(assignableRoles('owner', 'admin', 1)).toHaveLength(5);
    expect(assignableRoles('admin', 'editor', 1)).toEqual(['admin', 'editor', 'runner', 'viewer']);
    expect(assignableRoles('admin', 'admin', 1)).toEqual(['admin']);
    expect(assignableRoles('admin', 'owner', 2)).toEqual(['owner']);
    expect(assignableRoles('editor', 'viewer', 1)).toEqual(['viewer']);
    expect(assignableRoles(null, 'viewer', 1)).toEqual(['viewer']);
  });

  it('keeps the last owner an owner', () => {
    expect(assignableRoles('owner', 'owner', 1)).toEqual(['owner']);
    expect(assignableRoles('owner', 'owner', 2)).toHaveLength(5);
    expect(canRemove('owner', 'owner', { self: true, personal: false, owners: 1 })).toBe(false);
    expect(canRemove('owner', 'owner', { self: true, personal: false, owners: 2 })).toBe(true);
  });

  it('lets anyone leave a team, admins remove below admin, owners remove anyone; nobody leaves a personal workspace', () => {
    expect(canRemove('viewer', 'viewer', { self: true, personal: false, owners: 1 })).toBe(true);
    expect(canRemove('editor', 'viewer', { self: false, personal: false, owners: 1 })).toBe(false);
    expect(canRemove('admin', 'editor', { self: false, personal: false, owners: 1 })).toBe(true);
    expect(canRemove('admin', 'admin', { self: false, personal: false, owners: 1 })).toBe(false);
    expect(canRemove('owner', 'admin', { self: false, personal: false, owners: 1 })).toBe(true);
    expect(canRemove('owner', 'owner', { self: true, personal: true, owners: 1 })).toBe(false);
  });

  it('lets only owners invite owners', () => {
    expect(invitableRoles('owner')).toContain('owner');
    expect(invitableRoles('admin')).toEqual(['admin', 'editor', 'runner', 'viewer']);
    expect(invitableRoles('editor')).toEqual([]);
  });
});
