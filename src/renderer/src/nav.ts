// The screens in the navigation, and which operations each needs to show
// anything: a screen the person's role cannot read is left out (can.tsx).
import { SCREENS } from '../../shared/screens';
import type { DeskOperationName } from '../../shared/desk';
import type { Can } from './can';

export type Screen = (typeof SCREENS)[number][0];

type Entry = readonly [Screen, string];
export const NAV: readonly Entry[] = SCREENS;

const NEEDS: Record<Screen, DeskOperationName[]> = {
  practice: ['practice'],
  dashboard: ['dashboard'],
  approvals: ['listProposals'],
  rules: ['listRules'],
  transactions: ['register', 'listAccounts', 'listChart'],
  accounts: ['listAccounts'],
  opening: ['openingBalances'],
  import: ['importStatement'],
  connections: ['listConnections'],
  reconcile: ['reconcileView'],
  journals: ['listJournals'],
  reports: ['profitAndLoss', 'balancesReport'],
  ledger: ['generalLedger'],
  tax: ['taxReport', 'listTaxReturns'],
  chart: ['listChart'],
  contacts: ['listContacts'],
  invoices: ['listInvoices'],
  quotes: ['listQuotes'],
  repeating: ['listRepeatingInvoices'],
  bills: ['listBills'],
  aging: ['aging'],
  reminders: ['reminders'],
  mail: ['mailSettings'],
  rates: ['listRates'],
  receipts: ['listReceipts'],
  log: ['listAudit'],
  tokens: ['listTokens'],
  people: ['listPeople'],
  organizations: ['listOrganizations'],
  backups: ['listBackups'],
};

export const mayOpen = (can: Can, screen: Screen): boolean => NEEDS[screen].every((op) => can(op));

/** The organization a route names (#/transactions?org=<slug>&...: a Practice figure's link), by slug or id. */
export const routedOrg = <O extends { id: string; slug: string }>(params: URLSearchParams, orgs: readonly O[] | undefined): O | undefined => {
  const named = params.get('org');
  return named ? orgs?.find((o) => o.slug === named || o.id === named) : undefined;
};

/**
 * #/transactions?account=<id> -> the screen and its parameters (null: none named); #/invitation/<code> -> the code;
 * an address naming no screen (a mistyped or outdated link) -> `unknown`, which the desk says rather than open another.
 */
export function routeOf(hash: string): { screen: Screen | null; params: URLSearchParams; invitation: string | null; unknown: string | null } {
  const [path, query = ''] = hash.replace(/^#\/?/, '').split('?');
  const invitation = /^invitation\/(.+)$/.exec(path)?.[1] ?? null;
  const screen = NAV.find(([id]) => id === path)?.[0] ?? null;
  return { screen, params: new URLSearchParams(query), invitation, unknown: screen === null && invitation === null && path !== '' ? path : null };
}
