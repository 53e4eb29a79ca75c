// Opening a sign-in link in the computer's browser (issue 54): the desktop app's
// Connect to HMRC hands HMRC's sign-in link to the system browser (Electron's
// shell.openExternal), through the preload bridge like every desk operation (the
// IPC sender checked: desk/transport/ipc.ts). Only https links to HMRC's or
// Enable Banking's sign-in hosts are opened (edge/sign-in-links.ts); a browser
// on a server follows the link itself.
import * as z from 'zod';
import { Line } from '../api/fields';
import { invalid, LedgerError } from '../ledger/core/errors';
import { signInLinkRefusal } from '../edge/sign-in-links';
import { ANYONE } from './roles';
import { op } from './operation';

export const signInLinkOperations = {
  openSignInLink: op(ANYONE, z.strictObject({ url: Line(4000).min(1).describe("HMRC's (or Enable Banking's) sign-in link") }), async (ctx, { url }) => {
    if (!ctx.openExternal) throw new LedgerError('conflict', "Only the desktop app opens links in the computer's browser; here, follow the link.", { reason: 'not_desktop' });
    const refusal = signInLinkRefusal(url);
    if (refusal) throw invalid([{ field: 'url', message: `${refusal}: the app opens only HMRC's and Enable Banking's sign-in pages` }]);
    await ctx.openExternal(url);
    return { opened: true };
  }),
};
