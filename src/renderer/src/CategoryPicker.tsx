// A category picker with type-ahead over codes, names and synonyms ("53" or
// "cloud" finds 5300 Cloud infrastructure), usable by keyboard alone: type,
// arrows to move, Enter to choose, Escape to leave. ARIA combobox pattern.
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import type { Category } from '../../main/ledger/chart/categories';

/**
 * Offered categories matching a query: codes first by prefix, then names and synonyms containing it, the exact
 * name first and exact synonyms next, as an agent's free text is read ("travel" is 5020 Travel before the
 * 5000 whose synonym it is).
 */
export function matchCategories(categories: Category[], query: string): Category[] {
  const q = query.trim().toLowerCase();
  const offered = categories.filter((c) => c.inUse && c.code !== '');
  if (!q) return offered;
  const byCode = offered.filter((c) => c.code.toLowerCase().startsWith(q));
  const rank = (c: Category) => (c.name.toLowerCase() === q ? 0 : c.synonyms.some((w) => w.toLowerCase() === q) ? 1 : 2);
  const byWords = offered.filter((c) => !byCode.includes(c) && [c.name, ...c.synonyms].some((w) => w.toLowerCase().includes(q))).sort((a, b) => rank(a) - rank(b));
  return [...byCode, ...byWords];
}

/** An account offered beside the categories (a journal's money account, the tax control): chosen by its value. */
export interface PickExtra {
  value: string;
  code: string;
  name: string;
  words?: string[];
}

const matchExtras = (extra: PickExtra[], query: string) => {
  const q = query.trim().toLowerCase();
  return extra.filter((e) => !q || [e.code, e.name, ...(e.words ?? [])].some((w) => w.toLowerCase().includes(q)));
};

export function CategoryPicker({
  categories,
  label,
  onChoose,
  onCancel,
  allowClear = false,
  extra = [],
}: {
  categories: Category[];
  label: string;
  onChoose: (code: string | null) => void;
  onCancel?: () => void;
  allowClear?: boolean;
  extra?: PickExtra[];
}) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const list = useId();
  const options = useMemo(() => {
    const found: (Category | PickExtra | null)[] = [...matchExtras(extra, query), ...matchCategories(categories, query)];
    return allowClear && !query ? [...found, null] : found;
  }, [categories, query, allowClear, extra]);
  const choose = (c: Category | PickExtra | null | undefined) => c !== undefined && onChoose(c === null ? null : 'value' in c ? c.value : c.code);
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    e.stopPropagation(); // the register's own keys do not apply while typing here
    if (e.key === 'ArrowDown') setActive((a) => Math.min(options.length - 1, a + 1));
    else if (e.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1));
    else if (e.key === 'Enter') choose(options[active]);
    else if (e.key === 'Escape') onCancel?.();
    else return;
    e.preventDefault();
  };
  const optionId = (i: number) => `${list}-${i}`;
  return (
    <div className="picker">
      <input
        autoFocus
        role="combobox"
        aria-label={label}
        aria-expanded="true"
        aria-controls={list}
        aria-autocomplete="list"
        aria-activedescendant={options.length ? optionId(active) : undefined}
        placeholder="Code, name or synonym"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKey}
        onBlur={(e) => !e.currentTarget.parentElement?.contains(e.relatedTarget as Node) && onCancel?.()}
      />
      <ul role="listbox" id={list} aria-label="Categories">
        {options.map((c, i) => (
          <li
            key={c ? ('value' in c ? c.value : c.code) : 'none'}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(c)}
          >
            {c ? (
              <>
                <code>{c.code}</code> {c.name} {'synonyms' in c && c.synonyms.length > 0 && <span className="muted small">{c.synonyms.join(', ')}</span>}
              </>
            ) : (
              <span className="muted">(uncategorized)</span>
            )}
          </li>
        ))}
        {options.length === 0 && <li className="muted">No category matches “{query}”.</li>}
      </ul>
    </div>
  );
}
