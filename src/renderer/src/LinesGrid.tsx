// The table of lines a form edits (an invoice's or quote's, a journal's): its
// headings, one row per line that the form draws, and the last cell of each
// row, the line's remove button, shown while more lines remain than the form
// needs (one for a document, two for a journal).
import type { ReactNode } from 'react';

export interface LineRowProps<L> {
  i: number;
  line: L;
  set: (patch: Partial<L>) => void;
  /** Undefined when the line may not go (the form keeps its fewest). */
  remove?: () => void;
}

export function LinesGrid<L>(props: {
  headings: { label: string; num?: boolean }[];
  lines: L[];
  setLines: (lines: L[]) => void;
  fewest: number;
  row: (p: LineRowProps<L>) => ReactNode;
}) {
  const { headings, lines, setLines, fewest, row } = props;
  return (
    <table className="grid" aria-label="Lines">
      <thead>
        <tr>
          {headings.map((h) => (
            <th key={h.label} className={h.num ? 'num' : undefined}>
              {h.label}
            </th>
          ))}
          <th>
            <span className="sr-only">Remove</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line, i) =>
          row({
            i,
            line,
            set: (patch) => setLines(lines.map((l, j) => (j === i ? { ...l, ...patch } : l))),
            remove: lines.length > fewest ? () => setLines(lines.filter((_, j) => j !== i)) : undefined,
          }),
        )}
      </tbody>
    </table>
  );
}

/** A row's last cell: its remove button, named by the line's number. */
export const RemoveLine = ({ i, remove }: { i: number; remove?: () => void }) => (
  <td>
    {remove && (
      <button type="button" aria-label={`Remove line ${i + 1}`} onClick={remove}>
        ✕
      </button>
    )}
  </td>
);
