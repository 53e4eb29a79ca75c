// One desk call: validate the input with the operation's schema, run it, and
// answer {data} or {error} (the API's Error object). IPC and HTTP share this.
import { logInternal, toLedgerError, type Log } from '../../api/errors';
import { parsePart } from '../../api/validation';
import { LedgerError } from '../../ledger/core/errors';
import { asPerson, forOrgOf } from '../scope';
import type { Role } from '../roles';
import { DESK_OPERATIONS, type DeskAnswer, type DeskOperationName } from '../../../shared/desk';
import { deskOperations, type DeskContext } from '../operations';

export { forOrgOf };

export const isDeskOperation = (name: string): name is DeskOperationName => (DESK_OPERATIONS as readonly string[]).includes(name);

export async function runDesk(ctx: DeskContext, name: string, input: unknown, log: Log): Promise<DeskAnswer<unknown>> {
  try {
    if (!isDeskOperation(name)) throw new LedgerError('not_found', `No desk operation "${name}".`, { operation: name });
    const operation = deskOperations[name] as { roles: readonly Role[]; input: Parameters<typeof parsePart>[0]; run(ctx: DeskContext, input: unknown): unknown };
    // The role first: an operation the person may not run is refused whatever its input (403, never a 400 about its fields).
    return {
      data: await forOrgOf(ctx.ledger, input, async (org, asked) => {
        const permitted = await asPerson(ctx, name, operation.roles, org, asked);
        return operation.run(permitted, parsePart(operation.input, input ?? {}, 'input'));
      }),
    };
  } catch (error) {
    const failure = toLedgerError(error);
    if (failure.code === 'internal_error') logInternal(log, `desk operation ${name}`, error);
    return { error: failure.toBody().error };
  }
}
