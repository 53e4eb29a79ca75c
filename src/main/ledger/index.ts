// The domain: knows nothing of HTTP, MCP, Electron or React.
export * from './audit';
export * from './categories';
export * from './connectors';
export * from './dashboard';
export * from './db';
export * from './errors';
export * from './money';
export * from './notes';
export * from './ontology';
export * from './organizations';
export * from './proposals';
export * from './receipts';
export * from './review';
export * from './tokens';
export * from './transactions';
export * from './demo';
