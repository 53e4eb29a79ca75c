// The Practice table: a row per organization, a column per figure (the
// columns come with the answer: one more column on the server is one more
// here), each figure a link to where its work is, red when it needs attention.
// Any heading sorts by its column; again, the other way.
import { useState } from 'react';
import type { PracticeChoice } from '../../../../main/ledger/practice/choice';
import type { DeskResult } from '../../../../main/desk/operations';
import { Empty, TableFrame } from '../../components';
import { AssignForm } from './AssignForm';

type Answer = DeskResult<'practice'>;

function SortHead({ id, label, choice, onChoose }: { id: string; label: string; choice: PracticeChoice; onChoose: (c: PracticeChoice) => void }) {
  const active = choice.sort === id;
  return (
    <th aria-sort={active ? (choice.descending ? 'descending' : 'ascending') : undefined}>
      <button className="link" onClick={() => onChoose({ ...choice, sort: id, descending: active ? !choice.descending : false })}>
        {label}
        {active ? (choice.descending ? ' ▼' : ' ▲') : ''}
      </button>
    </th>
  );
}

export function PracticeTable({ practice, onChoose, onAssigned }: { practice: Answer; onChoose: (c: PracticeChoice) => void; onAssigned: () => void }) {
  const { choice, columns, rows } = practice;
  const [assigning, setAssigning] = useState<string>();
  if (rows.length === 0) return <Empty title="No organizations to show.">None matches this choice: pick &quot;All of them&quot;, or leave &quot;Needs attention only&quot;.</Empty>;
  const head = (id: string, label: string) => <SortHead key={id} id={id} label={label} choice={choice} onChoose={onChoose} />;
  return (
    <TableFrame>
      <table className="grid practice" aria-label={`Practice, ${practice.day}`}>
        <thead>
          <tr>
            {head('name', 'Organization')}
            {head('bookkeeper', 'Bookkeeper')}
            {head('reviewer', 'Reviewer')}
            {columns.map((c) => head(c.id, c.label))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.org.id} className={r.attention ? 'attention' : undefined}>
              <th scope="row">
                <a href={`#/dashboard?org=${encodeURIComponent(r.org.slug)}`}>{r.org.name}</a>
                {r.role === 'owner' && (
                  <button className="link" aria-expanded={assigning === r.org.id} onClick={() => setAssigning(assigning === r.org.id ? undefined : r.org.id)}>
                    Assign
                  </button>
                )}
                {assigning === r.org.id && (
                  <AssignForm
                    organization={r.org.slug}
                    onDone={() => {
                      setAssigning(undefined);
                      onAssigned();
                    }}
                  />
                )}
              </th>
              <td>{r.assigned.bookkeeper?.name ?? '—'}</td>
              <td>{r.assigned.reviewer?.name ?? '—'}</td>
              {columns.map((c) => {
                const cell = r.cells[c.id];
                return (
                  <td key={c.id} className={cell.red ? 'red' : undefined}>
                    <a href={cell.href} aria-label={`${r.org.name}, ${c.label}: ${cell.text}${cell.red ? ' (needs attention)' : ''}`}>
                      {cell.text}
                    </a>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
