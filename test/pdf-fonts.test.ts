// A PDF's fonts are parsed once per process and shared by every PDF made after
// (documents/pdf/parsed-fonts.ts, issue 53's speed): each PDF is still the same
// bytes as one made alone in a process of its own, whatever PDFs came before it
// in this one and whichever glyphs (Greek, Cyrillic, Hebrew, Chinese) they met
// first; and the parsed font is one object, not one per PDF.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { createDocument } from '../src/main/ledger/documents/entry';
import { documentPdf } from '../src/main/ledger/documents/pdf/pdf';
import { parsedFont, parsedFontOf } from '../src/main/ledger/documents/pdf/parsed-fonts';
import { ownerCommand, tempLedger } from './support/env';

const NAMES = ['Zoë Müller GmbH', 'Ακρόπολη Α.Ε.', 'ООО Ромашка', '株式会社 東京商事', 'שלום בע"מ', 'Plain Customer Ltd'];
let ledger: L.Ledger;
let org: L.Organization;
let dir: string;
const actor = L.deskActor();
const pdfOf = async (number: string) => documentPdf(ledger, org.seq, await L.requireDocument(ledger, org.seq, ['invoice'], number));

beforeAll(async () => {
  ({ ledger, dir } = await tempLedger());
  org = await L.createOrganization(ledger, { slug: 'fonts', name: 'Ωmega Études Ltd', currency: 'GBP' });
  await L.setupTaxSet(ledger, org.seq, actor, 'uk-vat');
  for (const [i, name] of NAMES.entries()) {
    await L.addContact(ledger, org.seq, actor, { name, customer: true, termsDays: 30 });
    // The last runs onto a second page; every line mixes scripts (the Chinese in the machine's CJK font, when it has one).
    const lines = Array.from({ length: i === NAMES.length - 1 ? 60 : 3 }, (_, k) => ({
      description: `${name} — line ${k} 漢字 café`,
      quantity: k + 1,
      unitPrice: 12.5 + k,
      categoryCode: '4000',
      taxCode: 'S',
    }));
    await createDocument(ledger, org.seq, actor, { contact: name, date: `2026-02-0${i + 1}`, lines, notes: `Notes for ${name}` }, { kind: 'invoice', issue: true });
  }
});

describe("a PDF's fonts, parsed once per process", () => {
  it('make the same bytes as a PDF made alone in a process of its own, after PDFs that met other glyphs first', async () => {
    const numbers = NAMES.map((_, i) => `INV-000${i + 1}`);
    const here: Buffer[] = [];
    for (const number of numbers) here.push(await pdfOf(number));
    const cli = ownerCommand(dir);
    // A process each (the slow part): the Chinese, the Hebrew, and the last, whose letters the others met first.
    for (const [i, number] of numbers.entries()) {
      if (i < 3) continue;
      const alone = join(dir, `${number}-alone.pdf`);
      cli('invoice', 'pdf', number, '--out', alone, '--org', 'fonts');
      expect(Buffer.compare(readFileSync(alone), here[i]), number).toBe(0);
    }
    // And again in the other order, each after all the others.
    for (const number of [...numbers].reverse()) expect(Buffer.compare(await pdfOf(number), here[numbers.indexOf(number)]), number).toBe(0);
  }, 120_000);

  it('are one parsed font each, whichever PDF asks', () => {
    const body = createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
    const once = parsedFont(body);
    expect(parsedFont(body)).toEqual(once);
    expect(parsedFontOf(once)).toBeDefined();
    expect(parsedFontOf(parsedFont(body))).toBe(parsedFontOf(once));
  });
});
