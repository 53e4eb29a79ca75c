// Who may run a desk operation (issue 45): each operation names one of these
// sets beside its definition (desk/operation.ts `op`), as an agent operation
// names its scope; the server enforces it (transport/dispatch.ts), the screens
// only reflect it. The machine's owner (the desktop app, a command, the
// one-time sign-in link) is every organization's owner.
import { ROLES, type Role } from '../ledger/access/roles';
import type { DeskOperationName } from '../../shared/desk';

export { ROLES, type Role };

/** Who may run each desk operation, by its name (desk/operations.ts answers it; the screens read it from appInfo). */
export type RoleTable = Record<DeskOperationName, readonly Role[]>;

/** Everyone with a role: a client too (the dashboard, reports, invoices, their own uploads, uploading receipts). */
export const ANYONE: readonly Role[] = ROLES;
/** Who reads the books: all but clients. */
export const STAFF: readonly Role[] = ['owner', 'accountant', 'bookkeeper', 'preparer'];
/** Who changes them: a bookkeeper and up. */
export const KEEPERS: readonly Role[] = ['owner', 'accountant', 'bookkeeper'];
/** Who changes them, a preparer's change becoming a proposal a bookkeeper approves. */
export const PROPOSERS: readonly Role[] = ['owner', 'accountant', 'bookkeeper', 'preparer'];
/** Journals, closing dates, filing tax returns, exports. */
export const ACCOUNTANTS: readonly Role[] = ['owner', 'accountant'];
/** A journal: an accountant's, or a preparer's proposal of one. */
export const JOURNALISTS: readonly Role[] = ['owner', 'accountant', 'preparer'];
/** People, every person's tokens, the organization's settings. */
export const OWNERS: readonly Role[] = ['owner'];
/** The machine's owner alone (the desktop, a command, the one-time link): every organization's books at once (backups). */
export const MACHINE: readonly Role[] = [];

/** Whose change an operation files as proposals instead of making it (desk/operation.ts `proposable`). */
export const PROPOSING: readonly Role[] = ['preparer'];
/**
 * Who may make an operation's change themselves: its roles but those whose change it files as a proposal. They, and
 * they alone, approve a proposal of that change (issue 50: desk/proposals/review.ts).
 */
export const appliers = (roles: readonly Role[]): Role[] => roles.filter((r) => !PROPOSING.includes(r));
