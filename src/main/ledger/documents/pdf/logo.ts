// A logo checked the way the invoices will use it (issue 43): drawn once into
// a throw-away PDF by pdfkit, so an image its decoder cannot read (a broken
// PNG, an unusual JPEG) is refused when it is set, not found out when an
// invoice is made.
import { LedgerError } from '../../core/errors';
import type { LogoType } from '../../access/logo';

export async function assertDrawable(bytes: Uint8Array, mimeType: LogoType): Promise<void> {
  // Loaded when asked for, as for every PDF (pdf.ts).
  const { default: PDFDocument } = await import('pdfkit');
  const pdf = new PDFDocument({ size: [200, 100], margin: 0 });
  const done = new Promise<void>((resolve, reject) => {
    pdf.on('end', resolve);
    pdf.on('error', reject);
  });
  pdf.on('data', () => {});
  try {
    pdf.image(Buffer.from(bytes), 0, 0, { fit: [200, 100] });
    pdf.end();
    await done;
  } catch (e) {
    const kind = mimeType === 'image/png' ? 'PNG' : 'JPEG';
    const message = `This ${kind} cannot be printed on an invoice (${(e as Error).message}): save it again as a plain ${kind} and try again.`;
    throw new LedgerError('validation_failed', message, [{ field: 'file', message }]);
  }
}
