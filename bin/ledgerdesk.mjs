#!/usr/bin/env node
// The `ledgerdesk` command (package.json bin): the TypeScript CLI through tsx,
// which is a runtime dependency for exactly this.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/index.ts');
