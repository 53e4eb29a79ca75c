// The domain (domain.ts) and opening, backing up and restoring ledger files:
// knows nothing of HTTP, MCP, Electron or React.
export * from './domain';
export * from './core/sqlite/open';
export * from './core/sqlite/backup';
