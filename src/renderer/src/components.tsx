// Small pieces every screen uses: states that are designed, not blank.
import { useEffect, useId, useState, type ReactNode } from 'react';
import { readTypedAmount, writeAmount, type TypedAmount } from '../../shared/amounts';
import { DeskError } from './desk';
import type { Loaded } from './hooks';
import { formatMoney } from './format';
import { useOrg } from './org';

/** The options of an account picker, by id, named as the person named them. */
export function AccountOptions({ accounts }: { accounts: { id: string; name: string }[] }) {
  return (
    <>
      {accounts.map((a) => (
        <option key={a.id} value={a.id}>
          {a.name}
        </option>
      ))}
    </>
  );
}

/** The options of a category picker: the chart's offered categories by code (`keep`: one more, archived since, already chosen). */
export function CategoryOptions({ categories, keep }: { categories: { code: string; name: string; inUse: boolean }[]; keep?: string }) {
  return (
    <>
      {categories
        .filter((c) => c.code && (c.inUse || c.code === keep))
        .map((c) => (
          <option key={c.code} value={c.code}>
            {c.code} {c.name}
          </option>
        ))}
    </>
  );
}

/** An amount; `plain` for balances, which are not money in or out. */
export function Money({ amount, currency, plain = false }: { amount: number; currency: string; plain?: boolean }) {
  // Zero is muted, never coloured: nothing came in or went out.
  return <span className={amount === 0 ? 'money zero' : plain ? 'money' : amount < 0 ? 'money out' : 'money in'}>{formatMoney(amount, currency)}</span>;
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state empty" role="status">
      <strong>{title}</strong>
      {children && <p>{children}</p>}
    </div>
  );
}

export function Failure({ error, retry }: { error: Error; retry?: () => void }) {
  const code = error instanceof DeskError ? error.code : 'error';
  if (code === 'validation_failed') {
    // Asking again would fail the same way: say what to change instead.
    const details = ((error as DeskError).details as { field: string; message: string }[] | null) ?? [];
    return (
      <div className="state failure" role="alert">
        <strong>These filters cannot be used as they are.</strong>
        <ul>{details.length ? details.map((d) => <li key={d.field}>{`${d.field[0].toUpperCase()}${d.field.slice(1)} ${d.message}.`}</li>) : <li>{error.message}</li>}</ul>
      </div>
    );
  }
  return (
    <div className="state failure" role="alert">
      <strong>Could not load this.</strong>
      <p>{error.message}</p>
      {retry && <button onClick={retry}>Try again</button>}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <div className="state loading" role="status" aria-live="polite">
      Loading {what}…
    </div>
  );
}

/** Loading, failure and empty states around a loaded value. */
export function Show<T>({ loaded, what, empty, children }: { loaded: Loaded<T>; what: string; empty?: (d: T) => ReactNode; children: (data: T) => ReactNode }) {
  if (loaded.data === undefined && loaded.loading) return <Loading what={what} />;
  if (loaded.data === undefined) return loaded.error ? <Failure error={loaded.error} retry={loaded.reload} /> : <Loading what={what} />;
  const emptyView = empty?.(loaded.data);
  return (
    <>
      {loaded.error && <Failure error={loaded.error} retry={loaded.reload} />}
      {emptyView ?? children(loaded.data)}
    </>
  );
}

export function Pager({ offset, limit, total, onChange }: { offset: number; limit: number; total: number; onChange: (offset: number) => void }) {
  const last = Math.min(offset + limit, total);
  return (
    <nav className="pager" aria-label="Pages">
      <button disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - limit))}>
        Previous
      </button>
      <span>{total === 0 ? 'No rows' : `${(offset + 1).toLocaleString()}–${last.toLocaleString()} of ${total.toLocaleString()}`}</span>
      <button disabled={last >= total} onClick={() => onChange(offset + limit)}>
        Next
      </button>
    </nav>
  );
}

export function Notice({ kind, children, onClose }: { kind: 'ok' | 'error'; children: ReactNode; onClose?: () => void }) {
  return (
    <div className={`notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      <span>{children}</span>
      {onClose && (
        <button type="button" className="close" aria-label="Dismiss" onClick={onClose}>
          ×
        </button>
      )}
    </div>
  );
}

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export function SelectField({
  label,
  value,
  onChange,
  anyLabel,
  options,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  anyLabel: string;
  options: readonly (string | { value: string; label: string })[];
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{anyLabel}</option>
        {options.map((o) =>
          typeof o === 'string' ? (
            <option key={o}>{o}</option>
          ) : (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ),
        )}
      </select>
    </label>
  );
}

/**
 * One date as the screens write them (YYYY-MM-DD, whatever the browser's locale); passed on once complete or cleared.
 * `disabled` while a value the screen loads is on its way: what is typed before it would be overwritten.
 */
export function DateField({ label, value, onChange, disabled }: { label: string; value: string; onChange: (v: string) => void; disabled?: boolean }) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  return (
    <label>
      {label}
      <input
        inputMode="numeric"
        size={10}
        maxLength={10}
        pattern="\d{4}-\d{2}-\d{2}"
        placeholder="YYYY-MM-DD"
        disabled={disabled}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value === '' || /^\d{4}-\d{2}-\d{2}$/.test(e.target.value)) onChange(e.target.value);
        }}
      />
    </label>
  );
}

export function DateRange({ from, to, onFrom, onTo }: { from: string; to: string; onFrom: (v: string) => void; onTo: (v: string) => void }) {
  return (
    <>
      <DateField label="From" value={from} onChange={onFrom} />
      <DateField label="To" value={to} onChange={onTo} />
    </>
  );
}

/** What a typed amount reads as with the organization's decimal mark (null while empty). */
export function useTypedAmount(text: string, currency: string): TypedAmount | null {
  const { decimalMark } = useOrg();
  return text.trim() === '' ? null : readTypedAmount(text, currency, decimalMark);
}

/**
 * An amount field: the text is sent as typed and read by the same reader the
 * ledger uses; below it, what it reads as, or why it cannot be read, live.
 */
export function AmountField({
  label,
  value,
  onChange,
  currency,
  placeholder,
  note,
  required,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  currency: string;
  placeholder?: string;
  note?: string;
  required?: boolean;
}) {
  const id = useId();
  const { decimalMark } = useOrg();
  const read = useTypedAmount(value, currency);
  return (
    <label className="amount-field">
      {label}
      <input
        inputMode="decimal"
        required={required}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder ?? writeAmount(-1250, currency, decimalMark)}
        aria-describedby={`${id}-reads`}
        aria-invalid={read?.ok === false || undefined}
      />
      <small id={`${id}-reads`} className={read?.ok === false ? 'reads refused' : 'reads'}>
        {read ? (read.ok ? `Reads as ${writeAmount(read.minor, currency, decimalMark)} ${currency}${note ? ` ${note}` : ''}` : read.message) : (note ?? '')}
      </small>
    </label>
  );
}

/** A wide table's frame: it scrolls inside, its first column kept in view (styles.css). */
export function TableFrame({ children }: { children: ReactNode }) {
  return <div className="table-frame">{children}</div>;
}

/** Tokens Chromium would break inside: after a hyphen or a slash (ID:INV-2312, 2026-05-20, A/C). */
const BREAKABLE = /\S[-‐–/]\S/;
/** Longer than this, a token may break at its hyphens, or anywhere when it has none: a pasted URL must not widen the page. */
const SHORT = 32;
const tokenClass = (part: string): string | null => (part.length > SHORT && !/\s/.test(part) ? 'long-token' : BREAKABLE.test(part) ? 'token' : null);

/**
 * Text that wraps only between words, where a bookkeeper reads a break: a reference, a date or an id stays whole
 * on its line; a very long token breaks as a last resort (styles.css: .token, .long-token).
 */
export function Words({ text }: { text: string }) {
  const parts = text.split(/(\s+)/);
  if (!parts.some(tokenClass)) return <>{text}</>;
  return (
    <>
      {parts.map((part, i) => {
        const className = tokenClass(part);
        return className ? (
          <span key={i} className={className}>
            {part}
          </span>
        ) : (
          part
        );
      })}
    </>
  );
}

/** Copies a secret or a link to the clipboard, and says so. */
export function Copy({ text, label }: { text: string; label: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      onClick={() =>
        navigator.clipboard.writeText(text).then(
          () => setDone(true),
          () => setDone(false),
        )
      }
      aria-label={label}
    >
      {done ? 'Copied' : 'Copy'}
    </button>
  );
}
