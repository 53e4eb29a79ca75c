// What the current organization's invoices print (issue 43), in
// Organizations: its registered name, address, country and VAT number; a
// company's registration (number, where registered, registered office); bank
// details and terms for the payment box; numbering and how dates are written;
// its logo. Only the fields changed are sent; the ledger checks each
// (ledger/access/details.ts) and the invoices read them when they are printed.
import { useState, type FormEvent, type ReactNode } from 'react';
import type { DeskResult } from '../../../../main/desk/operations';
import { COUNTRY_CODES, countryName } from '../../../../shared/countries';
import { DATE_STYLES, writeDate, type DateStyle } from '../../../../shared/date-styles';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';

type Org = DeskResult<'listOrganizations'>[number];
type Act = (what: () => Promise<unknown>, done: string) => void;

/** The parts of the UK a company is registered in (as ledger/access/details.ts has them), else "another country". */
const UK_PARTS = ['England and Wales', 'Wales', 'Scotland', 'Northern Ireland'];
const OTHER = 'other';
const TEXTS = [
  'legalName',
  'address',
  'country',
  'taxNumber',
  'companyNumber',
  'registeredIn',
  'registeredOffice',
  'bankName',
  'bankAccountName',
  'sortCode',
  'accountNumber',
  'iban',
  'bic',
  'paymentInstructions',
  'paymentTerms',
  'dateStyle',
  'invoicePrefix',
  'creditNotePrefix',
  'quotePrefix',
] as const;
const NEXTS = ['invoiceNext', 'creditNoteNext', 'quoteNext'] as const;
type Fields = Record<(typeof TEXTS)[number] | (typeof NEXTS)[number], string>;

/** An IBAN as it is read and printed, in groups of four. */
const grouped = (iban: string) => iban.replace(/(.{4})(?=.)/g, '$1 ');
/** Text as the ledger stores it, where it stores a plain form (an IBAN without spaces): typing it otherwise is no change. */
const stored = (key: (typeof TEXTS)[number], text: string) => (key === 'iban' ? text.replace(/\s/g, '').toUpperCase() : text.trim());

const fieldsOf = (o: Org): Fields => ({
  ...(Object.fromEntries(TEXTS.map((k) => [k, k === 'iban' && o.iban ? grouped(o.iban) : (o[k] ?? '')])) as Record<(typeof TEXTS)[number], string>),
  invoiceNext: String(o.invoiceNext),
  creditNoteNext: String(o.creditNoteNext),
  quoteNext: String(o.quoteNext),
});

/** What changed, as the operation takes it: '' clears a field (null), numbers as numbers. */
function changesOf(o: Org, f: Fields): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {};
  for (const key of TEXTS) if (stored(key, f[key]) !== (o[key] ?? '')) out[key] = f[key].trim() || (key.endsWith('Prefix') ? '' : null);
  for (const key of NEXTS) if (Number(f[key]) !== o[key]) out[key] = Number(f[key]);
  return out;
}

const countries = COUNTRY_CODES.map((code) => ({ code, name: countryName(code) })).sort((a, b) => a.name.localeCompare(b.name));
const today = new Date().toISOString().slice(0, 10);

function Text({ label, value, onChange, wide, hint }: { label: string; value: string; onChange: (v: string) => void; wide?: boolean; hint?: string }) {
  return (
    <label className={wide ? 'wide' : undefined}>
      {label}
      {wide ? (
        <textarea rows={3} maxLength={1000} value={value} onChange={(e) => onChange(e.target.value)} placeholder={hint} />
      ) : (
        <input maxLength={200} value={value} onChange={(e) => onChange(e.target.value)} placeholder={hint} />
      )}
    </label>
  );
}

function Group({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {children}
    </fieldset>
  );
}

function Logo({ org, act }: { org: Org; act: Act }) {
  const logo = useLoad(() => desk.organizationLogo({ organization: org.id }), [org.id]);
  const [busy, setBusy] = useState(false);
  function set(file: File | undefined) {
    if (!file) return;
    setBusy(true);
    act(async () => {
      try {
        // Staged like any upload, then checked by its bytes and kept in the books.
        const { uploadId } = await desk.stageStatement({ orgId: org.id, fileName: file.name, bytes: new Uint8Array(await file.arrayBuffer()) });
        await desk.setOrganizationLogo({ organization: org.id, file: uploadId });
        logo.reload();
      } finally {
        setBusy(false);
      }
    }, `${file.name} is the logo of ${org.name}'s invoices.`);
  }
  const l = logo.data;
  return (
    <Group legend="Logo">
      {l ? (
        <figure className="logo-preview">
          <img src={`data:${l.mimeType};base64,${l.base64}`} alt={`Logo of ${org.name}`} />
          <figcaption className="hint">
            {l.fileName}, {l.width} x {l.height}
          </figcaption>
        </figure>
      ) : (
        <p className="hint">No logo: invoices print the name as a heading.</p>
      )}
      <label className="button">
        {busy ? 'Saving…' : l ? 'Replace the logo' : 'Choose a logo'}
        <input type="file" className="sr-only" aria-label="Logo file (PNG or JPEG, up to 1 MB)" accept="image/png,image/jpeg" onChange={(e) => set(e.target.files?.[0])} />
      </label>
      {l && (
        <button type="button" onClick={() => act(async () => (await desk.setOrganizationLogo({ organization: org.id, remove: true }), logo.reload()), 'Logo removed.')}>
          Remove the logo
        </button>
      )}
    </Group>
  );
}

export function OrganizationDetails({ org, act }: { org: Org; act: Act }) {
  const [f, setF] = useState(() => fieldsOf(org));
  const [other, setOther] = useState(!!org.registeredIn && !UK_PARTS.includes(org.registeredIn));
  const field = (key: keyof Fields) => ({ value: f[key], onChange: (v: string) => setF({ ...f, [key]: v }) });
  function save(e: FormEvent) {
    e.preventDefault();
    const changes = changesOf(org, f);
    act(
      async () => {
        if (Object.keys(changes).length) setF(fieldsOf({ ...org, ...(await desk.updateOrganization({ organization: org.id, ...changes })) }));
      },
      Object.keys(changes).length ? `Saved what ${org.name}'s invoices print.` : 'Nothing changed.',
    );
  }
  return (
    <>
      <h3>What invoices of {org.name} print</h3>
      <p className="hint">Read when an invoice's PDF is made: a change here shows on every invoice printed from now on, older ones included.</p>
      <div className="details-form">
        <Logo org={org} act={act} />
      </div>
      <form className="details-form" aria-label="Invoice details" onSubmit={save}>
        <Group legend="The business">
          <Text label="Registered name (if not its name)" {...field('legalName')} hint="Hartley Studio Ltd" />
          <Text label="Postal address" wide {...field('address')} />
          <label>
            Country
            <select value={f.country} onChange={(e) => setF({ ...f, country: e.target.value })}>
              <option value="">{org.taxSet === 'uk-vat' ? 'Not said (United Kingdom, from UK VAT)' : 'Not said'}</option>
              {countries.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <Text label="VAT registration number" {...field('taxNumber')} hint="GB123456789" />
        </Group>
        <Group legend="Company registration (printed at the foot of each invoice)">
          <Text label="Company number" {...field('companyNumber')} hint="01234567" />
          <label>
            Registered in
            <select
              value={other ? OTHER : f.registeredIn}
              onChange={(e) => (setOther(e.target.value === OTHER), setF({ ...f, registeredIn: e.target.value === OTHER ? '' : e.target.value }))}
            >
              <option value="">Not a registered company</option>
              {UK_PARTS.map((p) => (
                <option key={p}>{p}</option>
              ))}
              <option value={OTHER}>Another country…</option>
            </select>
          </label>
          {other && <Text label="Country of registration" {...field('registeredIn')} />}
          <Text label="Registered office (if not the postal address)" wide {...field('registeredOffice')} />
        </Group>
        <Group legend="Payment details">
          <Text label="Bank" {...field('bankName')} />
          <Text label="Account name" {...field('bankAccountName')} />
          <Text label="Sort code" {...field('sortCode')} hint="12-34-56" />
          <Text label="Account number" {...field('accountNumber')} />
          <Text label="IBAN" {...field('iban')} />
          <Text label="BIC" {...field('bic')} />
          <Text label="Other ways to pay" wide {...field('paymentInstructions')} />
          <Text label="Payment terms" wide {...field('paymentTerms')} hint="Payment within 14 days of the invoice date." />
        </Group>
        <Group legend="Numbering and dates">
          <Text label="Invoice prefix" {...field('invoicePrefix')} />
          <label>
            Next invoice number
            <input inputMode="numeric" pattern="\d{1,8}" size={8} value={f.invoiceNext} onChange={(e) => setF({ ...f, invoiceNext: e.target.value })} />
          </label>
          <Text label="Credit note prefix" {...field('creditNotePrefix')} />
          <label>
            Next credit note number
            <input inputMode="numeric" pattern="\d{1,8}" size={8} value={f.creditNoteNext} onChange={(e) => setF({ ...f, creditNoteNext: e.target.value })} />
          </label>
          <Text label="Quote prefix" {...field('quotePrefix')} />
          <label>
            Next quote number
            <input inputMode="numeric" pattern="\d{1,8}" size={8} value={f.quoteNext} onChange={(e) => setF({ ...f, quoteNext: e.target.value })} />
          </label>
          <label>
            Dates on documents
            <select value={f.dateStyle} onChange={(e) => setF({ ...f, dateStyle: e.target.value })}>
              <option value="">Automatic ({writeDate(today, org.effectiveDateStyle)})</option>
              {DATE_STYLES.map((s: DateStyle) => (
                <option key={s} value={s}>
                  {writeDate(today, s)}
                </option>
              ))}
            </select>
          </label>
          <p className="hint wide">
            The next invoice is {org.nextInvoiceNumber}, the next credit note {org.nextCreditNoteNumber}. A number is never given twice: the next number only moves forward, and
            stays above every number already used with its prefix.
          </p>
        </Group>
        <button type="submit">Save invoice details</button>
      </form>
    </>
  );
}
