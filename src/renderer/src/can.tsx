// What the person may do in the current organization (issue 45), read from the
// server's own table (appInfo.roles): the screens leave out what it would refuse
// (403 either way). The desktop app and the one-time link are every books' owner.
import { createContext, useContext } from 'react';
import type { DeskResult } from '../../main/desk/operations';
import type { Role } from '../../main/desk/roles';
import type { DeskOperationName } from '../../shared/desk';

export type { Role };
export type RoleTable = DeskResult<'appInfo'>['roles'];
/** Whether the person may run an operation: in the current organization, or as `role` (another organization's). */
export type Can = (op: DeskOperationName, role?: Role) => boolean;

export const ROLES = ['owner', 'accountant', 'bookkeeper', 'preparer', 'client'] as const satisfies readonly Role[];

/** The machine's owner (no person signed in) may do everything, backups too; so may anyone without a table (a main process from before roles). */
export const canWith =
  (roles: RoleTable | undefined, current: Role, machine: boolean): Can =>
  (op, role = current) =>
    machine || !roles || (roles[op] ?? []).includes(role);

const CanContext = createContext<Can>(() => true);
export const CanProvider = CanContext.Provider;
export const useCan = (): Can => useContext(CanContext);

/** A preparer's change is filed as proposals: the row has not changed yet. */
export const PROPOSED = 'Proposed: waits in Approvals for a bookkeeper.';
/** A journal is approved only by whom may enter one (issue 50: desk/proposals/review.ts). */
export const PROPOSED_JOURNAL = 'Proposed: waits in Approvals for an accountant or owner, who may enter it.';
export const isProposed = (result: unknown): result is { proposed: unknown[] } => typeof result === 'object' && result !== null && 'proposed' in result;
/** What a change says once sent: its own words, or that it waits for a bookkeeper. */
export const doneText = (result: unknown, done: string): string => (isProposed(result) ? PROPOSED : done);
