// Every job, one line each: syncing connectors (issue 52), making repeating
// invoices and sending reminders (issue 53), refreshing HMRC's tokens (issue 54).
import type { Job } from './job';
import { connectorSyncJob } from './connector-sync';
import { remindersJob, repeatingInvoicesJob } from './documents';
import { hmrcTokensJob } from './hmrc';

export const JOBS: readonly Job[] = [connectorSyncJob, repeatingInvoicesJob, remindersJob, hmrcTokensJob];
