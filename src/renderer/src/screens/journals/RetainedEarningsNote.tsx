// Where the earlier years' earnings go (issue 50), under the opening balances: the chart's retained earnings
// account, shown with them as one balance sheet line; or, while it names none, the entry's equity category that
// reads as one, offered ("Make it the retained earnings account": category retained-earnings).
import { useState } from 'react';
import type { DeskResult } from '../../../../main/desk/operations';
import { messageOf } from '../../components';
import { desk } from '../../desk';
import { useCan } from '../../can';

type Retained = DeskResult<'openingBalances'>['retainedEarnings'];

export function RetainedEarningsNote({ orgId, retained, onMade }: { orgId: string; retained: Retained; onMade: () => void }) {
  const may = useCan()('setRetainedEarnings');
  const [error, setError] = useState('');
  if (!retained) return null;
  const account = `${retained.code} ${retained.name}`;
  if (!retained.offered)
    return (
      <p className="hint">
        {account} is the retained earnings account: the balance sheet shows it with the earlier years&rsquo; earnings as one &ldquo;Retained earnings&rdquo; line.
      </p>
    );
  async function make() {
    try {
      await desk.setRetainedEarnings({ orgId, code: retained!.code });
      onMade();
    } catch (err) {
      setError(messageOf(err));
    }
  }
  return (
    <div className="hint" role="note">
      {account} reads as the earnings of earlier years. As the retained earnings account, the balance sheet shows it with the earnings computed before the fiscal year as one
      &ldquo;Retained earnings&rdquo; line, not two. {may && <button onClick={() => void make()}>Make it the retained earnings account</button>}
      {error && <span className="error"> {error}</span>}
    </div>
  );
}
