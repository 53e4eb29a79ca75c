// The Practice screen (issue 55): every organization the person works on, one
// row each, with the work waiting, the due dates and what needs attention in
// red; each figure opens the place in that organization where the work is.
// The filter and sort are kept on the server for the person (any browser).
import type { PracticeChoice } from '../../../../main/ledger/practice/choice';
import { Notice, Show, messageOf } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';
import { useState } from 'react';
import { PracticeFilters } from './PracticeFilters';
import { PracticeTable } from './PracticeTable';

const POLL_MS = 15_000;

export function Practice({ signedIn }: { signedIn: boolean }) {
  const loaded = useLoad(() => desk.practice({ kept: true }), [], POLL_MS);
  const [error, setError] = useState<string>();
  // The choice shows at once; the rows follow once it is kept.
  const [chosen, setChosen] = useState<PracticeChoice>();
  const choose = (choice: PracticeChoice) => {
    setError(undefined);
    setChosen(choice);
    desk.keepPracticeChoice(choice).then(loaded.reload, (e: unknown) => setError(messageOf(e)));
  };
  return (
    <section aria-labelledby="practice-title">
      <div className="screen-head">
        <h2 id="practice-title">Practice</h2>
      </div>
      {error && (
        <Notice kind="error" onClose={() => setError(undefined)}>
          {error}
        </Notice>
      )}
      <Show loaded={loaded} what="your organizations">
        {(p) => (
          <>
            <PracticeFilters choice={chosen ?? p.choice} people={p.people} signedIn={signedIn} onChoose={choose} />
            <PracticeTable practice={{ ...p, choice: chosen ?? p.choice }} onChoose={choose} onAssigned={loaded.reload} />
          </>
        )}
      </Show>
    </section>
  );
}
