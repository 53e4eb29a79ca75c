// Desktop: one ipcMain.handle per desk operation. Only the app's own top-level
// renderer may call; the input is parsed by the operation's schema (runDesk).
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { DESK_OPERATIONS, deskChannel, type DeskAnswer } from '../../../shared/desk';
import { isRendererPage } from '../../renderer-url';
import { runDesk } from './dispatch';
import type { DeskContext } from '../operations';

export interface IpcOptions {
  context: () => DeskContext;
  /** The URL the app's renderer is loaded from (file:// in production, the dev server in development). */
  rendererUrl: string;
  log: (m: string) => void;
}

/** The sender must be the top frame of a page loaded from our own renderer URL. */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'senderFrame'>, rendererUrl: string): boolean {
  const frame = event.senderFrame;
  return Boolean(frame && frame.parent === null && isRendererPage(frame.url, rendererUrl));
}

const FORBIDDEN: DeskAnswer<never> = { error: { code: 'forbidden_origin', message: 'Desk operations answer only the app window.', details: null } };

export function registerDeskIpc(ipcMain: Pick<IpcMain, 'handle'>, options: IpcOptions): string[] {
  return DESK_OPERATIONS.map((name) => {
    const channel = deskChannel(name);
    ipcMain.handle(channel, async (event, input: unknown) => {
      if (!isTrustedSender(event, options.rendererUrl)) {
        options.log(`refused ${channel} from ${event.senderFrame?.url ?? 'an unknown frame'}`);
        return FORBIDDEN;
      }
      return runDesk(options.context(), name, input, options.log);
    });
    return channel;
  });
}
