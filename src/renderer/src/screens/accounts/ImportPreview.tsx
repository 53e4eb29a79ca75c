// The parts of the Import screen's dry run: which account each section goes
// to (and the CSV mapping), the rows that could not be read, the rows as they
// would be written (with a decision for each possible match), what was left out.
import type { DeskInput, DeskResult } from '../../../../main/desk/operations';
import type { ImportResult } from '../../../../main/ledger/imports/import';
import { Money, TableFrame, Words } from '../../components';
import { DateFormatField, MappingEditor } from './ImportMapping';
import { IssueTable } from './ImportSkipped';

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

/** The choice "as the file says": what the file found, or (an account picked by hand, whose preview says nothing of the file) just that. */
function fromTheFile(account: ImportResult['accounts'][number] | ImportResult['account'] | undefined, picked: boolean): string {
  if (picked || !account) return 'Find it from the file';
  return account.created ? `New account: ${account.name}` : `${account.name} (found from the file)`;
}

export function ImportOptions({ accounts, preview, options, set, problem, noAccounts }: OptionsProps) {
  const sections = preview?.accounts ?? [];
  const found = fromTheFile(preview?.account, Boolean(options.account));
  // A QIF's dates are the file's own too: asked when they read both ways (a CSV's are in its mapping).
  const dates = preview && !preview.csv && preview.format === 'qif' ? preview.dates : null;
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
              <option value="">{fromTheFile(s, Boolean(options.accounts?.[String(s.section)]))}</option>
              {accountOptions(accounts)}
            </select>
          </label>
        ))}
      {preview?.csv && <MappingEditor csv={preview.csv} dates={preview.dates} options={options} set={set} />}
      {dates && (dates.formats.length > 1 || options.dateFormat) && <DateFormatField dates={dates} value={options.dateFormat} onChange={(dateFormat) => set({ dateFormat })} />}
      {noAccounts && (
        <p className="hint">
          A CSV does not name its account: add one in <a href="#/accounts">Accounts</a> first.
        </p>
      )}
    </div>
  );
}

interface IssuesProps {
  preview: ImportResult;
  skipBadRows: boolean;
  setSkip: (skip: boolean) => void;
  skipLocked: boolean;
  setSkipLocked: (skip: boolean) => void;
}

/**
 * The rows that stop the import, or (skipping them) the rows that will be
 * skipped: listed either way, with the choices that made them so, so that
 * ticking "skip" never hides what is left out.
 */
export function PreviewIssues({ preview, skipBadRows, setSkip, skipLocked, setSkipLocked }: IssuesProps) {
  const wholeFile = preview.errors.some((e) => e.file);
  const issues = preview.errors.length ? preview.errors : preview.skippedRows;
  if (!issues.length) return null;
  const locked = issues.some((e) => e.message.includes('closing date'));
  const bad = issues.some((e) => !e.message.includes('closing date'));
  const said = wholeFile
    ? 'Before anything can be imported:'
    : preview.errors.length
      ? 'These rows could not be read; nothing is imported until they are fixed or skipped:'
      : `These ${preview.skipped} row(s) are skipped: the others are imported, these are kept with the import to fix.`;
  return (
    <div className="errors">
      <p>{said}</p>
      <IssueTable issues={issues} label={preview.errors.length ? 'Rows to fix' : 'Rows to skip'} />
      {!wholeFile && (bad || skipBadRows) && (
        <label className="check">
          <input type="checkbox" checked={skipBadRows} onChange={(e) => setSkip(e.target.checked)} /> Skip the bad rows and import the others
        </label>
      )}
      {!wholeFile && (locked || skipLocked) && (
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

/** Without `decide` (a feed's first sync): the rows as they are, possible matches held for the person after the sync. */
export function PreviewRows({
  rows,
  decisions = {},
  decide,
}: {
  rows: ImportResult['preview'];
  decisions?: Record<string, Decision>;
  decide?: (n: number, decision: Decision) => void;
}) {
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
              <td className="wrap">
                <Words text={r.description} />
              </td>
              <td className="num">
                <Money amount={r.amount} currency={r.currency} />
              </td>
              <td>
                <span className={`status ${r.kind}`}>{KIND_LABEL[r.kind]}</span>
                {r.note && <div className="small muted">{r.note}</div>}
                {r.match && (
                  <div className="small muted">{r.kind === 'duplicate' ? 'already in the books' : `may be ${r.match.date} “${r.match.description}” (${r.match.reason})`}</div>
                )}
                {r.transfer && decide && <TransferCell row={r} decision={decisions[String(r.n)]} decide={decide} />}
                {r.kind === 'possible_match' && decide && (
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
