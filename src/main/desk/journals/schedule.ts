// While the app runs (desktop or `serve`): the repeating journals'
// occurrences that fell due are made at start and checked hourly after, as
// the daily backup is (journals/repeats.ts says why on their dates).
import * as L from '../../ledger';
import { today } from '../../ledger/core/clock';

export async function scheduleJournalRepeats(ledger: L.Ledger, log: (m: string) => void): Promise<() => void> {
  const run = async () => {
    try {
      const made = await L.catchUpRepeats(ledger, L.deskActor(), today());
      if (made) log(`repeating journals: ${made} made`);
    } catch (error) {
      log(`repeating journals failed: ${(error as Error)?.message ?? String(error)}`);
    }
  };
  await run();
  const hourly = setInterval(() => void run(), 60 * 60_000);
  hourly.unref();
  return () => clearInterval(hourly);
}
