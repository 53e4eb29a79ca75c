// The desk's screens, in the navigation's order: the renderer's routes
// (#/<id>) and the accessibility suite, which visits every one. Plain data.
export const SCREENS = [
  ['dashboard', 'Dashboard'],
  ['approvals', 'Approvals'],
  ['rules', 'Rules'],
  ['transactions', 'Transactions'],
  ['accounts', 'Accounts'],
  ['import', 'Import'],
  ['reconcile', 'Reconcile'],
  ['reports', 'Reports'],
  ['ledger', 'General ledger'],
  ['tax', 'Tax'],
  ['chart', 'Chart of accounts'],
  ['contacts', 'Contacts'],
  ['invoices', 'Invoices'],
  ['bills', 'Bills'],
  ['aging', 'Aging'],
  ['receipts', 'Receipts'],
  ['log', 'Log'],
  ['tokens', 'Tokens'],
  ['organizations', 'Organizations'],
  ['backups', 'Backups'],
] as const;
