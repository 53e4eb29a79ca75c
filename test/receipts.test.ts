// Receipt intake on real files: types by magic bytes, size limit, storage under
// SHA-256 (once, in the database), cleaned names, PDF text that search_receipts finds.
import { beforeAll, describe, expect, it } from 'vitest';
import { runDesk } from '../src/main/desk/transport/dispatch';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { cleanFileName, MAX_RECEIPT_BYTES, sniffType } from '../src/main/receipts/intake';
import { tempDir, tempLedger } from './support/env';
import { textPdf } from './support/pdf';
import { fillDemo } from '../src/main/demo';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const HEIC = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.alloc(12)]);

let ctx: DeskContext;
let orgId: string;
let orgSeq: number;
const upload = (fileName: string, bytes: Uint8Array) => runDesk(ctx, 'uploadReceipt', { orgId, fileName, bytes }, () => {});

beforeAll(async () => {
  const { ledger } = await tempLedger();
  const org = await L.createOrganization(ledger, { slug: 'acme', name: 'Acme' });
  await fillDemo(ledger, org.seq, org.slug, 40, org.currency);
  orgId = org.id;
  orgSeq = org.seq;
  ctx = { ledger, dataDir: tempDir(), agentUrl: 'http://127.0.0.1:1', mode: 'browser', reviewer: L.deskActor() };
});

describe('receipt intake', () => {
  it('knows PDF, JPEG, PNG and HEIC by their bytes, never by name', () => {
    expect(sniffType(textPdf(['x']))).toBe('application/pdf');
    expect(sniffType(JPEG)).toBe('image/jpeg');
    expect(sniffType(PNG)).toBe('image/png');
    expect(sniffType(HEIC)).toBe('image/heic');
    expect(sniffType(Buffer.from('GIF89a....'))).toBeNull();
    expect(sniffType(Buffer.from('MZ\x90\x00'))).toBeNull();
  });

  it('cleans the original name into harmless metadata', () => {
    expect(cleanFileName('C:\\Users\\me\\..\\invoice\u0000 2025.pdf')).toBe('invoice 2025.pdf');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('...')).toBe('receipt');
    expect(cleanFileName(`${'a'.repeat(300)}.pdf`)).toMatch(/^a{196}\.pdf$/);
  });

  it('stores a file once under its SHA-256, extracts PDF text and audits the upload', async () => {
    const pdf = textPdf(['Invoice 991', 'Quokka Catering Pty', 'Total 310.00']);
    const first = (await upload('quokka.pdf', pdf)) as { data: { receipt: L.Receipt; duplicate: boolean } };
    expect(first.data.duplicate).toBe(false);
    expect(first.data.receipt).toMatchObject({ fileName: 'quokka.pdf', mimeType: 'application/pdf', sizeBytes: pdf.length, transactionId: null });
    expect(first.data.receipt.ocrText).toContain('Quokka Catering Pty');
    const again = (await upload('renamed.pdf', pdf)) as { data: { receipt: L.Receipt; duplicate: boolean } };
    expect(again.data).toEqual({ receipt: first.data.receipt, duplicate: true });
    const files = (await ctx.ledger.stmt('SELECT sha256, size_bytes AS size FROM receipt_files WHERE org_seq = ?').all(orgSeq)) as { sha256: string; size: number }[];
    expect(files).toEqual([{ sha256: expect.stringMatching(/^[0-9a-f]{64}$/), size: pdf.length }]);
    const back = (await runDesk(ctx, 'receiptBytes', { orgId, id: first.data.receipt.id }, () => {})) as { data: { bytes: Uint8Array; fileName: string } };
    expect(Buffer.from(back.data.bytes)).toEqual(pdf);
    expect(back.data.fileName).toBe('quokka.pdf');
    expect((await L.searchReceipts(ctx.ledger, orgSeq, 'quokka catering')).map((r) => r.id)).toEqual([first.data.receipt.id]);
    expect((await L.listAudit(ctx.ledger, orgSeq, { action: 'receipt.uploaded', limit: 5, offset: 0 })).totalCount).toBe(1);
  });

  it('accepts images without text, refuses other types, empty files and files over 20 MB', async () => {
    for (const [name, bytes, type] of [
      ['a.jpg', JPEG, 'image/jpeg'],
      ['b.png', PNG, 'image/png'],
      ['c.heic', HEIC, 'image/heic'],
    ] as const) {
      const answer = (await upload(name, bytes)) as { data: { receipt: L.Receipt } };
      expect(answer.data.receipt).toMatchObject({ mimeType: type, ocrText: null });
    }
    expect(await upload('evil.pdf', Buffer.from('MZ this is an exe'))).toEqual({ error: expect.objectContaining({ code: 'unsupported_media_type' }) });
    expect(await upload('empty.pdf', Buffer.alloc(0))).toEqual({ error: expect.objectContaining({ code: 'validation_failed' }) });
    const big = Buffer.concat([textPdf(['x']), Buffer.alloc(MAX_RECEIPT_BYTES)]);
    expect(await upload('big.pdf', big)).toEqual({ error: expect.objectContaining({ code: 'payload_too_large' }) });
    // Refused files leave nothing behind: the three images are all that is kept besides the PDF.
    expect(await ctx.ledger.stmt('SELECT count(*) FROM receipt_files WHERE org_seq = ?').pluck().get(orgSeq)).toBe(4);
  });

  it('links a receipt by hand, with an audit entry, only within the organization', async () => {
    const receipt = (await L.listReceipts(ctx.ledger, orgSeq, { limit: 1, offset: 0 })).receipts[0];
    const tx = (await L.listTransactions(ctx.ledger, orgSeq, { limit: 1, offset: 0 })).data[0];
    const linked = (await runDesk(ctx, 'linkReceipt', { orgId, receiptId: receipt.id, transactionId: tx.id }, () => {})) as { data: L.Receipt };
    expect(linked.data.transactionId).toBe(tx.id);
    expect((await L.getTransaction(ctx.ledger, orgSeq, tx.id)).receipts.map((r) => r.id)).toContain(receipt.id);
    expect((await L.listAudit(ctx.ledger, orgSeq, { action: 'receipt.linked', limit: 5, offset: 0 })).entries[0].summary).toMatch(/linked by hand/);
    const other = await L.createOrganization(ctx.ledger, { slug: 'other', name: 'Other' });
    const foreign = await runDesk(ctx, 'linkReceipt', { orgId: other.id, receiptId: receipt.id, transactionId: tx.id }, () => {});
    expect(foreign).toEqual({ error: expect.objectContaining({ code: 'not_found' }) });
  });
});
