// Every job, one line each (issue 52): syncing connectors now; repeating
// invoices, reminders and HMRC's token refresh join it as one line each.
import type { Job } from './job';
import { connectorSyncJob } from './connector-sync';

export const JOBS: readonly Job[] = [connectorSyncJob];
