// What each role in a workspace may do, as the server decides it (accounts/workspaces.py): the UI offers
// only what will not be refused. owner > admin > editor > runner > viewer.
import type { Role } from '../api/types';

export const ROLES: readonly Role[] = ['owner', 'admin', 'editor', 'runner', 'viewer'];

const RANK: Record<Role, number> = { viewer: 0, runner: 1, editor: 2, admin: 3, owner: 4 };

/** What a role is for, in a few words (role selects and the settings page). */
export const ROLE_WORDS: Record<Role, string> = {
  owner: 'everything, including owners',
  admin: 'members, keys, limits',
  editor: 'design and run',
  runner: 'run and watch, not edit',
  viewer: 'watch, read, export',
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && value in RANK;
}

export interface Capabilities {
  /** The role is known; when not (an older server, or no answer yet), nothing is held back: the server still decides. */
  known: boolean;
  role: Role | null;
  /** See, watch, export. */
  read: boolean;
  /** Start, pause, resume and stop runs. */
  run: boolean;
  /** Create, save, delete and move workflows. */
  edit: boolean;
  /** Members, invitations, keys, limits, the audit log. */
  manage: boolean;
  /** Owner-only matters (other owners). */
  own: boolean;
}

export function capabilities(role: string | null | undefined): Capabilities {
  if (!isRole(role)) return { known: false, role: null, read: true, run: true, edit: true, manage: true, own: true };
  const r = RANK[role];
  return { known: true, role, read: true, run: r >= RANK.runner, edit: r >= RANK.editor, manage: r >= RANK.admin, own: r >= RANK.owner };
}

/** The banner over a document the role cannot change, or null when it can. */
export function readOnlyReason(role: string | null | undefined, workspaceName: string): string | null {
  const caps = capabilities(role);
  if (caps.edit || !caps.role) return null;
  const where = workspaceName ? ` in ${workspaceName}` : '';
  const can = caps.run ? 'you can run this workflow and watch its runs, not change it' : 'you can look at it and export it, not change or run it';
  return `Read-only: your role${where} is ${caps.role}: ${can}.`;
}

/** Why Run is not offered to the role (null: it is). */
export function cannotRunReason(role: string | null | undefined, workspaceName = ''): string | null {
  const caps = capabilities(role);
  if (caps.run || !caps.role) return null;
  return `Your role${workspaceName ? ` in ${workspaceName}` : ''} is ${caps.role}: it cannot start or control runs (that needs runner or above).`;
}

/** Why creating, saving or deleting workflows is not offered (null: it is). */
export function cannotEditReason(role: string | null | undefined, workspaceName = ''): string | null {
  const caps = capabilities(role);
  if (caps.edit || !caps.role) return null;
  return `Your role${workspaceName ? ` in ${workspaceName}` : ''} is ${caps.role}: it cannot create or edit workflows (that needs editor or above).`;
}

/** Why an action that needs `need` is not offered to the role, naming the action (null: it is offered, or the role
 * is not known and the server decides): "Your role in Acme is viewer: running experiments needs runner or above." */
export function roleFallsShort(role: string | null | undefined, workspaceName: string, need: 'run' | 'edit' | 'manage', what: string): string | null {
  const caps = capabilities(role);
  if (caps[need] || !caps.role) return null;
  const least = { run: 'runner', edit: 'editor', manage: 'admin' }[need];
  return `Your role${workspaceName ? ` in ${workspaceName}` : ''} is ${caps.role}: ${what} needs ${least} or above.`;
}

/**
 * The roles `mine` may give a member who is now `theirs` (the member's current role included, so a
 * select shows it); a single entry means the role cannot be changed. Admins manage editors, runners
 * and viewers (and may make one an admin); owners manage everyone. A workspace keeps an owner.
 */
export function assignableRoles(mine: Role | null, theirs: Role, owners: number): Role[] {
  if (!mine || RANK[mine] < RANK.admin) return [theirs];
  if (theirs === 'owner' && owners <= 1) return [theirs];
  if (mine === 'owner') return [...ROLES];
  if (theirs === 'owner' || theirs === 'admin') return [theirs];
  return ROLES.filter((r) => r !== 'owner');
}

/** Whether `mine` may take a member out (or, for oneself, leave); the server has the last word. */
export function canRemove(mine: Role | null, theirs: Role, opts: { self: boolean; personal: boolean; owners: number }): boolean {
  if (opts.personal || !mine) return false;
  if (theirs === 'owner' && opts.owners <= 1) return false;
  if (opts.self) return true;
  if (RANK[mine] < RANK.admin) return false;
  return mine === 'owner' || (theirs !== 'owner' && theirs !== 'admin');
}

/** The roles an invitation from `mine` may carry (only an owner invites owners). */
export function invitableRoles(mine: Role | null): Role[] {
  if (!mine || RANK[mine] < RANK.admin) return [];
  return mine === 'owner' ? [...ROLES] : ROLES.filter((r) => r !== 'owner');
}
