// A message as it would go, every part editable (issue 53): the recipients, the
// subject, the body, a copy to the sender; the attachment named. The one form
// behind a document's Send… and a statement's.
import { useState } from 'react';

interface Composed {
  to: string[];
  subject: string;
  body: string;
  copyTo: string | null;
  attachment: string;
}

/** The message's parts: as composed until the person changes one. */
export function useMessageDraft(c: Composed | undefined) {
  const [edits, setEdits] = useState<{ to?: string; subject?: string; body?: string }>({});
  const [copyMe, setCopyMe] = useState(false);
  const to = edits.to ?? c?.to.join(', ') ?? '';
  return {
    c,
    to,
    recipients: () =>
      to
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean),
    subject: edits.subject ?? c?.subject ?? '',
    body: edits.body ?? c?.body ?? '',
    copyMe,
    setCopyMe,
    edit: (part: 'to' | 'subject' | 'body', value: string) => setEdits({ ...edits, [part]: value }),
  };
}

export function MessageFields({ draft, rows }: { draft: ReturnType<typeof useMessageDraft>; rows: number }) {
  const { c } = draft;
  return (
    <>
      <label>
        To
        <input value={draft.to} onChange={(e) => draft.edit('to', e.target.value)} disabled={!c} />
      </label>
      <label>
        Subject
        <input value={draft.subject} maxLength={300} onChange={(e) => draft.edit('subject', e.target.value)} disabled={!c} />
      </label>
      <label>
        Message
        <textarea rows={rows} value={draft.body} onChange={(e) => draft.edit('body', e.target.value)} disabled={!c} />
      </label>
      <label>
        <input type="checkbox" checked={draft.copyMe} onChange={(e) => draft.setCopyMe(e.target.checked)} /> Send me a copy{c?.copyTo ? ` (${c.copyTo})` : ''}
      </label>
      <p className="hint">{c ? `${c.attachment} goes attached.` : 'Filling in the message…'}</p>
    </>
  );
}
