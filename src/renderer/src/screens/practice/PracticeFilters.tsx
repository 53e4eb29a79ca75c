// Whose organizations the Practice screen shows (everyone's, mine, one
// person's) and whether only those needing attention.
import type { PracticeChoice } from '../../../../main/ledger/practice/choice';
import type { Assigned } from '../../../../main/ledger/practice/assignments';

export function PracticeFilters(props: { choice: PracticeChoice; people: Assigned[]; signedIn: boolean; onChoose: (c: PracticeChoice) => void }) {
  const { choice, people, signedIn, onChoose } = props;
  return (
    <form className="filters" onSubmit={(e) => e.preventDefault()}>
      <label>
        Organizations
        <select value={choice.who} onChange={(e) => onChoose({ ...choice, who: e.target.value })}>
          <option value="all">All of them</option>
          {signedIn && <option value="mine">Mine (bookkeeper or reviewer)</option>}
          {people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}&apos;s
            </option>
          ))}
        </select>
      </label>
      <label className="check">
        <input type="checkbox" checked={choice.attention} onChange={(e) => onChoose({ ...choice, attention: e.target.checked })} />
        Needs attention only
      </label>
    </form>
  );
}
