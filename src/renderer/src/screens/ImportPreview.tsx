// The parts of the Import screen's dry run: which account each section goes
// to (and the CSV mapping), the rows that could not be read, the rows as they
// would be written (with a decision for each possible match), what was left out.
import type { DeskInput, DeskResult } from '../../../main/desk/operations';
import type { ImportResult } from '../../../main/ledger/imports/import';
import { Money, TableFrame } from '../components';
import { MappingEditor } from './ImportMapping';

export type Options = Omit<DeskInput<'importStatement'>, 'orgId' | 'file'>;
export type Decision = 'merge' | 'import' | 'held' | 'transfer';
type Account = DeskResult<'listAccounts'>[number];
const KIND_LABEL = { new: 'new', duplicate: 'duplicate', possible_match: 'possible match' } as const;

interface OptionsProps {
  accounts: Account[];
  preview: ImportResult | undefined;
  options: Options;
  set: (patch: Partial<Options>) => void;
  problem: { field: string } | undefined;
  noAccounts: boolean;
}

const accountOptions = (accounts: Account[]) =>
  accounts.map((a) => (
    <option key={a.id} value={a.id}>
      {a.name} ({a.currency})
    </option>
  ));

export function ImportOptions({ accounts, preview, options, set, problem, noAccounts }: OptionsProps) {
  const sections = preview?.accounts ?? [];
  const found = preview?.account ? (preview.account.created ? `New account: ${preview.account.name}` : `${preview.account.name} (found from the file)`) : 'Found from the file';
  return (
    <div className="import-options">
      {(sections.length <= 1 || !preview) && (
        <label>
          Account
          <select aria-label="Account" value={options.account ?? ''} onChange={(e) => set({ account: e.target.value || undefined })} aria-invalid={problem?.field === 'account'}>
            <option value="">{found}</option>
            {accountOptions(accounts)}
          </select>
        </label>
      )}
      {sections.length > 1 &&
        sections.map((s) => (
          <label key={s.section}>
            Section {s.section + 1}
            <select value={options.accounts?.[String(s.section)] ?? ''} onChange={(e) => set({ accounts: { ...options.accounts, [String(s.section)]: e.target.value } })}>
              <option value="">{s.created ? `New account: ${s.name}` : s.name}</option>
              {accountOptions(accounts)}
            </select>
          </label>
        ))}
      {preview?.csv && <MappingEditor csv={preview.csv} options={options} set={set} />}
      {noAccounts && (
        <p className="hint">
          A CSV does not name its account: add one in <a href="#/accounts">Accounts</a> first.
        </p>
      )}
    </div>
  );
}

export function PreviewErrors({
  errors,
  wholeFile,
  skipBadRows,
  setSkip,
  skipLocked = false,
  setSkipLocked,
}: {
  errors: ImportResult['errors'];
  wholeFile: boolean;
  skipBadRows: boolean;
  setSkip: (skip: boolean) => void;
  skipLocked?: boolean;
  setSkipLocked?: (skip: boolean) => void;
}) {
  return (
    <div className="errors">
      <p>{wholeFile ? 'Before anything can be imported:' : 'These rows could not be read; nothing is imported until they are fixed or skipped:'}</p>
      <table className="grid">
        <tbody>
          {errors.map((e, i) => (
            <tr key={i}>
              <td>line {e.line}</td>
              <td>{e.field}</td>
              <td>{e.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!wholeFile && (
        <label className="check">
          <input type="checkbox" checked={skipBadRows} onChange={(e) => setSkip(e.target.checked)} /> Skip the bad rows and import the others
        </label>
      )}
      {setSkipLocked && errors.some((e) => e.message.includes('closing date')) && (
        <label className="check">
          <input type="checkbox" checked={skipLocked} onChange={(e) => setSkipLocked(e.target.checked)} /> Leave out the rows in the closed period
        </label>
      )}
    </div>
  );
}

/** A side of a transfer between your accounts: matched with the row named, or possibly (the person decides). */
function TransferCell({ row, decision, decide }: { row: ImportResult['preview'][number]; decision: Decision | undefined; decide: (n: number, decision: Decision) => void }) {
  const t = row.transfer!;
  const other = `${t.with.account}, ${t.with.date} “${t.with.description}”`;
  if (t.kind === 'matched') return <div className="small">Transfer: the other side of {other}</div>;
  return (
    <div className="small">
      <span className="badge">Possible transfer</span> with {other}
      {t.candidates > 1 && ` (${t.candidates} rows fit)`}{' '}
      <select aria-label={`Line ${row.line}: transfer?`} value={decision === 'transfer' ? 'transfer' : 'import'} onChange={(e) => decide(row.n, e.target.value as Decision)}>
        <option value="import">Import as it is</option>
        <option value="transfer">Transfer: match it with that row</option>
      </select>
    </div>
  );
}

export function PreviewRows({ rows, decisions, decide }: { rows: ImportResult['preview']; decisions: Record<string, Decision>; decide: (n: number, decision: Decision) => void }) {
  return (
    <TableFrame>
      <table className="grid">
        <thead>
          <tr>
            <th>Line</th>
            <th>Date</th>
            <th>Description</th>
            <th className="num">Amount</th>
            <th>Is</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.n} className={r.kind}>
              <td>{r.line}</td>
              <td className="nowrap">{r.date}</td>
              <td className="wrap">{r.description}</td>
              <td className="num">
                <Money amount={r.amount} currency={r.currency} />
              </td>
              <td>
                <span className={`status ${r.kind}`}>{KIND_LABEL[r.kind]}</span>
                {r.note && <div className="small muted">{r.note}</div>}
                {r.match && (
                  <div className="small muted">{r.kind === 'duplicate' ? 'already in the books' : `may be ${r.match.date} “${r.match.description}” (${r.match.reason})`}</div>
                )}
                {r.transfer && <TransferCell row={r} decision={decisions[String(r.n)]} decide={decide} />}
                {r.kind === 'possible_match' && (
                  <select aria-label={`Line ${r.line}: same transaction?`} value={decisions[String(r.n)] ?? 'held'} onChange={(e) => decide(r.n, e.target.value as Decision)}>
                    <option value="held">Decide later (hold back)</option>
                    <option value="merge">Same transaction (keep mine, take the bank&apos;s date)</option>
                    <option value="import">A different one (import it)</option>
                  </select>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}

export function LeftOut({ ignored }: { ignored: ImportResult['ignored'] }) {
  if (ignored.length === 0) return null;
  return (
    <div className="muted small">
      {ignored.length} part(s) of the file are left out:
      <ul>
        {ignored.slice(0, 5).map((i) => (
          <li key={i.line}>
            line {i.line}: {i.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}
