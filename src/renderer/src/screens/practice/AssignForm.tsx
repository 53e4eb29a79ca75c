// An owner names an organization's responsible bookkeeper or its reviewer by
// their email (they hold a role there).
import { useState } from 'react';
import { messageOf, Notice } from '../../components';
import { desk } from '../../desk';

export function AssignForm({ organization, onDone }: { organization: string; onDone: () => void }) {
  const [email, setEmail] = useState('');
  const [asReviewer, setAsReviewer] = useState(false);
  const [error, setError] = useState<string>();
  const submit = () => {
    setError(undefined);
    desk.assignPractice({ organization, email, asReviewer }).then(onDone, (e: unknown) => setError(messageOf(e)));
  };
  return (
    <form
      className="assign"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label>
        Email
        <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
      </label>
      <label>
        As
        <select value={asReviewer ? 'reviewer' : 'bookkeeper'} onChange={(e) => setAsReviewer(e.target.value === 'reviewer')}>
          <option value="bookkeeper">Responsible bookkeeper</option>
          <option value="reviewer">Reviewer</option>
        </select>
      </label>
      <button type="submit">Assign</button>
      {error && <Notice kind="error">{error}</Notice>}
    </form>
  );
}
