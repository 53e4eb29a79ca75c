// The desk's operations by name: shared by the main process (which defines
// them), the preload (which exposes them) and the renderer (which calls them).
// Plain data only: this file is bundled into the sandboxed preload.
export const DESK_OPERATIONS = [
  'appInfo',
  'listOrganizations',
  'createOrganization',
  'renameOrganization',
  'updateOrganization',
  'removeOrganization',
  'listProposals',
  'reviewProposals',
  'listAudit',
  'listReceipts',
  'uploadReceipt',
  'linkReceipt',
  'receiptBytes',
  'openReceipt',
  'listTokens',
  'createToken',
  'revokeToken',
  'listTransactions',
  'getTransaction',
  'dashboard',
  'listAccounts',
  'createAccount',
  'updateAccount',
  'closeAccount',
  'reopenAccount',
  'importStatement',
  'importProgress',
  'listImports',
  'undoImport',
  'stageStatement',
  'register',
  'addTransaction',
  'editTransaction',
  'deleteTransaction',
  'categorizeTransactions',
  'markReceiptMissing',
  'reverseProposal',
  'listChart',
  'addCategory',
  'renameCategory',
  'setCategorySynonyms',
  'archiveCategory',
  'restoreCategory',
  'reconcileView',
  'reconcileAccount',
  'undoReconciliation',
  'profitAndLoss',
  'balancesReport',
  'exportBooks',
  'downloadExport',
  'verifyAudit',
  'listBackups',
  'backupNow',
  'listRules',
  'createRule',
  'updateRule',
  'moveRule',
  'deleteRule',
  'runRules',
  'ruleDraft',
  'approveAndRemember',
] as const;

export type DeskOperationName = (typeof DESK_OPERATIONS)[number];

export const deskChannel = (name: DeskOperationName): string => `desk:${name}`;

/** What every desk call answers, over IPC and HTTP alike. */
export type DeskAnswer<T> = { data: T } | { error: { code: string; message: string; details: unknown } };

/** The browser mode's route for desk calls, behind the session cookie. */
export const DESK_HTTP_PREFIX = '/desk/api';
