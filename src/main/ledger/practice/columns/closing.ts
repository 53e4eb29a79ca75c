// The closing date: nothing dated on or before it changes (organizations.locked_through).
import { column, NONE, place } from '../column';

export interface ClosingFigure {
  lockedThrough: string | null;
}

export const closing = column<ClosingFigure>({
  id: 'closing',
  label: 'Closed through',
  read: (_ledger, seen) => Promise.resolve(new Map(seen.map(({ org }) => [org.seq, { lockedThrough: org.lockedThrough }]))),
  cell: (f, org) => ({ text: f.lockedThrough ?? NONE, red: false, href: place(org, 'organizations'), sort: f.lockedThrough }),
});
