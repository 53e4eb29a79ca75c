// Receipts: upload (picker or drag and drop), see what agents can search, link by hand.
import { useState, type DragEvent } from 'react';
import type { DeskResult } from '../../../../main/desk/operations';
import type { Receipt } from '../../../../main/ledger/transactions/receipts';
import { DESK_HTTP_PREFIX } from '../../../../shared/desk';
import { Empty, Money, Notice, Pager, Show, TableFrame, Words, messageOf } from '../../components';
import { desk, isBrowserMode } from '../../desk';
import { saveBlob } from '../reports/ExportPanel';
import { formatBytes, formatDateTime } from '../../format';
import { useLoad } from '../../hooks';
import { doneText, useCan } from '../../can';

const LIMIT = 50;
const MAX_BYTES = 20 * 1024 * 1024;
const ACCEPT = '.pdf,.jpg,.jpeg,.png,.heic,application/pdf,image/jpeg,image/png,image/heic';

function LinkForm({ orgId, receipt, onDone }: { orgId: string; receipt: Receipt; onDone: (message: string) => void }) {
  const [q, setQ] = useState('');
  const found = useLoad(() => (q.trim().length >= 2 ? desk.listTransactions({ orgId, description: q.trim(), limit: 8 }) : Promise.resolve(null)), [orgId, q]);
  async function link(transactionId: string) {
    try {
      onDone(doneText(await desk.linkReceipt({ orgId, receiptId: receipt.id, transactionId }), `Linked ${receipt.fileName}.`));
    } catch (error) {
      onDone(`Could not link: ${messageOf(error)}`);
    }
  }
  return (
    <div className="link-form">
      <input
        autoFocus
        maxLength={200}
        aria-label="Find the transaction by description"
        placeholder="Find the transaction by description"
        value={q}
        onChange={(e) => setQ(e.target.value)}
      />
      <ul>
        {found.data?.data.map((t) => (
          <li key={t.id}>
            <button onClick={() => link(t.id)}>
              {t.date} · {t.description} · <Money amount={t.amount} currency={t.currency} />
            </button>
          </li>
        ))}
        {found.data && found.data.data.length === 0 && <li className="muted">No transaction matches.</li>}
      </ul>
    </div>
  );
}

/** Open (a new tab in a browser, the computer's viewer in the desktop app) and Download. */
function FileActions({ orgId, receipt, onError }: { orgId: string; receipt: Receipt; onError: (text: string) => void }) {
  const url = (download: boolean) => `${DESK_HTTP_PREFIX}/receipts/${receipt.id}?${new URLSearchParams({ orgId, ...(download ? { download: '1' } : {}) })}`;
  if (isBrowserMode()) {
    return (
      <span className="file-actions">
        <a href={url(false)} target="_blank" rel="noopener noreferrer" aria-label={`Open ${receipt.fileName}`}>
          Open
        </a>{' '}
        <a href={url(true)} download={receipt.fileName} aria-label={`Download ${receipt.fileName}`}>
          Download
        </a>
      </span>
    );
  }
  const run = (fn: () => Promise<unknown>) => () => void fn().catch((error: unknown) => onError(`${receipt.fileName}: ${messageOf(error)}`));
  return (
    <span className="file-actions">
      <button aria-label={`Open ${receipt.fileName}`} onClick={run(() => desk.openReceipt({ orgId, id: receipt.id }))}>
        Open
      </button>
      <button
        aria-label={`Download ${receipt.fileName}`}
        onClick={run(async () => {
          const file = await desk.receiptBytes({ orgId, id: receipt.id });
          saveBlob(file.fileName, new Blob([file.bytes as BlobPart], { type: file.mimeType }));
        })}
      >
        Download
      </button>
    </span>
  );
}

export function Receipts({ orgId }: { orgId: string }) {
  const [offset, setOffset] = useState(0);
  const [linking, setLinking] = useState<string>();
  const [messages, setMessages] = useState<{ kind: 'ok' | 'error'; text: string }[]>([]);
  const [dragging, setDragging] = useState(false);
  /** The file being uploaded and read now, and how many are left: a 20 MB PDF takes seconds. */
  const [uploading, setUploading] = useState<{ name: string; size: number; index: number; count: number }>();
  const loaded = useLoad(() => desk.listReceipts({ orgId, limit: LIMIT, offset }), [orgId, offset]);

  async function upload(files: FileList | File[]) {
    const results: { kind: 'ok' | 'error'; text: string }[] = [];
    const list = Array.from(files);
    setMessages([]);
    for (const [index, file] of list.entries()) {
      setUploading({ name: file.name, size: file.size, index, count: list.length });
      if (file.size > MAX_BYTES) {
        results.push({ kind: 'error', text: `${file.name}: larger than 20 MB.` });
        continue;
      }
      try {
        const { receipt, duplicate } = await desk.uploadReceipt({ orgId, fileName: file.name, bytes: new Uint8Array(await file.arrayBuffer()) });
        results.push({
          kind: 'ok',
          text: duplicate ? `${file.name}: already stored as ${receipt.fileName}.` : `${file.name}: stored${receipt.ocrText ? ', its text is searchable by agents' : ''}.`,
        });
      } catch (error) {
        results.push({ kind: 'error', text: `${file.name}: ${messageOf(error)}` });
      }
    }
    setUploading(undefined);
    setMessages(results);
    loaded.reload();
  }

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    void upload(e.dataTransfer.files);
  };

  return (
    <section aria-labelledby="receipts-title">
      <div className="screen-head">
        <h2 id="receipts-title">Receipts</h2>
      </div>
      <div
        className={`dropzone${dragging ? ' over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <p>Drop PDF, JPEG, PNG or HEIC receipts here (up to 20 MB each), or</p>
        <label className="button">
          Choose files
          <input
            type="file"
            multiple
            accept={ACCEPT}
            aria-label="Upload receipts"
            disabled={Boolean(uploading)}
            onChange={(e) => e.target.files && upload(e.target.files)}
            hidden
          />
        </label>
      </div>
      {uploading && (
        <div className="notice ok" role="status">
          <span>
            Uploading and reading {uploading.name} ({formatBytes(uploading.size)}){uploading.count > 1 ? `, file ${uploading.index + 1} of ${uploading.count}` : ''}…
          </span>
          <progress aria-label="Uploading" />
        </div>
      )}
      {messages.map((m, i) => (
        <Notice key={i} kind={m.kind}>
          {m.text}
        </Notice>
      ))}
      <Show
        loaded={loaded}
        what="receipts"
        empty={(d) => (d.receipts.length === 0 ? <Empty title="No receipts yet.">Upload one above; agents find it with search_receipts.</Empty> : undefined)}
      >
        {(data) => (
          <>
            <TableFrame>
              <table className="grid">
                <thead>
                  <tr>
                    <th>File</th>
                    <th>Type</th>
                    <th>Size</th>
                    <th>Uploaded</th>
                    <th>Text</th>
                    <th>Transaction</th>
                  </tr>
                </thead>
                <tbody>
                  {data.receipts.map((r) => (
                    <ReceiptRow
                      key={r.id}
                      orgId={orgId}
                      receipt={r}
                      linking={linking === r.id}
                      setLinking={(on) => setLinking(on ? r.id : undefined)}
                      say={(kind, text) => setMessages([{ kind, text }])}
                      reload={loaded.reload}
                    />
                  ))}
                </tbody>
              </table>
            </TableFrame>
            <Pager offset={offset} limit={LIMIT} total={data.totalCount} onChange={setOffset} />
          </>
        )}
      </Show>
    </section>
  );
}

type Listed = DeskResult<'listReceipts'>['receipts'][number];

interface RowProps {
  orgId: string;
  receipt: Listed;
  linking: boolean;
  setLinking: (on: boolean) => void;
  say: (kind: 'ok' | 'error', text: string) => void;
  reload: () => void;
}

/** One receipt: its file, its text, and the transaction it is linked to (link, relink, or delete it while linked to nothing). */
function ReceiptRow({ orgId, receipt: r, linking, setLinking, say, reload }: RowProps) {
  const can = useCan();
  const remove = () =>
    window.confirm(`Delete ${r.fileName}? It is linked to nothing.`) &&
    void desk.deleteReceipt({ orgId, id: r.id }).then(
      () => (say('ok', `Deleted ${r.fileName}.`), reload()),
      (error: unknown) => say('error', messageOf(error)),
    );
  return (
    <tr>
      <td>
        <Words text={r.fileName} />
        <div>
          <FileActions orgId={orgId} receipt={r} onError={(text) => say('error', text)} />
        </div>
      </td>
      <td>{r.mimeType}</td>
      <td className="num">{formatBytes(r.sizeBytes)}</td>
      <td className="nowrap">{formatDateTime(r.createdAt)}</td>
      <td className="small">{r.ocrText ? <Words text={`${r.ocrText.slice(0, 80)}${r.ocrText.length > 80 ? '…' : ''}`} /> : <span className="muted">none</span>}</td>
      <td>
        {r.linkedTo ? (
          <div className="small">
            <Words text={`${r.linkedTo.date} · ${r.linkedTo.description} ·`} /> <Money amount={r.linkedTo.amount} currency={r.linkedTo.currency} />
          </div>
        ) : (
          <div className="muted small">linked to nothing</div>
        )}
        {linking ? (
          <LinkForm
            orgId={orgId}
            receipt={r}
            onDone={(text) => {
              setLinking(false);
              say(text.startsWith('Could not') ? 'error' : 'ok', text);
              reload();
            }}
          />
        ) : (
          can('linkReceipt') && <button onClick={() => setLinking(true)}>{r.transactionId ? 'Relink' : 'Link to transaction'}</button>
        )}{' '}
        {!r.transactionId && can('deleteReceipt') && (
          <button className="reject" onClick={remove}>
            Delete
          </button>
        )}
      </td>
    </tr>
  );
}
