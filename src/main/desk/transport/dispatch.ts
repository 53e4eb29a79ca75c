// One desk call: validate the input with the operation's schema, run it, and
// answer {data} or {error} (the API's Error object). IPC and HTTP share this.
import { toLedgerError } from '../../api/errors';
import { parsePart } from '../../api/validation';
import { LedgerError } from '../../ledger/core/errors';
import { forOrgOf } from '../scope';
import { DESK_OPERATIONS, type DeskAnswer, type DeskOperationName } from '../../../shared/desk';
import { deskOperations, type DeskContext } from '../operations';

export { forOrgOf };

export const isDeskOperation = (name: string): name is DeskOperationName => (DESK_OPERATIONS as readonly string[]).includes(name);

export async function runDesk(ctx: DeskContext, name: string, input: unknown, log: (m: string) => void): Promise<DeskAnswer<unknown>> {
  try {
    if (!isDeskOperation(name)) throw new LedgerError('not_found', `No desk operation "${name}".`, { operation: name });
    const operation = deskOperations[name] as { input: Parameters<typeof parsePart>[0]; run(ctx: DeskContext, input: unknown): unknown };
    const parsed = parsePart(operation.input, input ?? {}, 'input');
    return { data: await forOrgOf(ctx.ledger, parsed, () => operation.run(ctx, parsed)) };
  } catch (error) {
    const failure = toLedgerError(error);
    if (failure.code === 'internal_error') log(`internal error in desk operation ${name}: ${(error as Error)?.stack ?? String(error)}`);
    return { error: failure.toBody().error };
  }
}
