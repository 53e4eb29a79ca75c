// Runs a desk operation as the screens and owner commands do (runDesk), for
// one organization; a refusal is thrown with its code, message and details.
import { runDesk } from '../../src/main/desk/transport/dispatch';
import type { DeskContext } from '../../src/main/desk/operations';

export async function deskAs<T = any>(ctx: DeskContext, orgId: string, name: string, input: Record<string, unknown> = {}): Promise<T> {
  const answer = await runDesk(ctx, name, { orgId, ...input }, (m) => process.env.DESK_LOG && console.error(m));
  if ('error' in answer) throw Object.assign(new Error(`${answer.error.code}: ${answer.error.message}`), answer.error);
  return answer.data as T;
}
