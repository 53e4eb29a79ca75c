// Prints the SQL of the triggers the totals declaration asks for
// (src/main/ledger/totals/declared.ts): what a migration that changes the
// declaration creates. `node --import tsx scripts/totals-sql.ts`.
import { EVENTS, TOTALS, triggerSql } from '../src/main/ledger/totals/declared';

for (const t of TOTALS) for (const event of EVENTS) process.stdout.write(`${triggerSql(t, event)};\n--> statement-breakpoint\n`);
