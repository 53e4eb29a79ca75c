// HMRC's access tokens refreshed before they lapse (issue 54), so a submission
// never waits on a refresh; nothing to do where this Ledgerdesk has no HMRC
// application (its settings unset).
import { refreshHmrcTokens } from '../hmrc/access';
import { hmrcSettings } from '../hmrc/settings';
import type { Job } from './job';

export const hmrcTokensJob: Job = {
  name: 'hmrc.tokens',
  every: 30 * 60_000,
  run: async (ledger, now) => {
    if (!process.env.LEDGERDESK_HMRC_CLIENT_ID || !process.env.LEDGERDESK_HMRC_CLIENT_SECRET) return;
    await refreshHmrcTokens(ledger, hmrcSettings(), now);
  },
};
