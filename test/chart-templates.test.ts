// Chart templates (issue 50): a new UK organization (UK VAT, or in GB) starts with the UK small-business chart,
// each category with its UK VAT code and no SaaS vendors; the agent API's categories list is that chart; an
// organization elsewhere keeps the default chart (the ontology's) and its seed vendors; existing ones are unchanged.
import { beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { operations } from '../src/main/api/registry';
import type { DeskContext } from '../src/main/desk/operations';
import { runDesk } from '../src/main/desk/transport/dispatch';
import { deskAs } from './support/desk';
import { call, world, type World } from './support/env';

let w: World;
let ctx: DeskContext;
type Made = L.Organization & { role: string };

async function create(input: Record<string, unknown>): Promise<Made> {
  const answer = await runDesk(ctx, 'createOrganization', input, () => {});
  if ('error' in answer) throw Object.assign(new Error(answer.error.message), answer.error);
  return answer.data as Made;
}
const chartOf = (org: Made) => deskAs<L.DeskCategory[]>(ctx, org.id, 'listChart');
const DEFAULT_CODES = ['4000', '4010', '5000', '5100', '5200', '5300'];

beforeAll(async () => {
  w = await world(5);
  ctx = { ledger: w.ledger, dataDir: w.dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
});

describe('a new UK organization', () => {
  let uk: Made;
  beforeAll(async () => {
    uk = await create({ slug: 'loch', name: 'Loch Joinery', currency: 'GBP', taxSet: 'uk-vat' });
  });

  it('starts with the UK small-business chart, each category with its UK VAT code', async () => {
    expect(uk.chartTemplate).toBe('uk-small-business');
    const chart = await chartOf(uk);
    const taxOf = Object.fromEntries(chart.map((c) => [c.name, c.taxCode]));
    expect(taxOf).toMatchObject({
      Sales: 'S',
      'Other income': 'S',
      'Interest received': 'E',
      'Cost of sales': 'S',
      'Wages and salaries': 'NV',
      "Employer's NI": 'NV',
      Pensions: 'NV',
      Rent: 'E',
      Rates: 'NV',
      'Light and heat': 'S',
      'Telephone and internet': 'S',
      'Motor expenses': 'S',
      Travel: 'Z',
      Subsistence: 'S',
      Accountancy: 'S',
      'Legal and professional fees': 'S',
      'Bank charges': 'E',
      Insurance: 'E',
      'Repairs and maintenance': 'S',
      'Advertising and marketing': 'S',
      Depreciation: 'NV',
      'Office equipment and computers': 'S',
      "Directors' loan account": null,
      'Share capital': null,
    });
    expect(chart.filter((c) => ['asset', 'liability', 'equity'].includes(c.type)).map((c) => c.name)).toEqual(
      expect.arrayContaining(['Fixed assets', 'Other debtors and prepayments', 'Other creditors and accruals', 'PAYE and NI', 'Loans', 'Retained earnings', 'Drawings']),
    );
    expect(chart.find((c) => c.code === '5000')).toMatchObject({ costOfSales: true });
    expect(chart.find((c) => c.code === '3200')).toMatchObject({ type: 'equity', retainedEarnings: true, isDefault: true });
    expect(chart.filter((c) => c.retainedEarnings)).toHaveLength(1);
    expect(chart.some((c) => ['Software & tools', 'Cloud infrastructure', 'SaaS subscriptions'].includes(c.name))).toBe(false);
  });

  it('has no seed vendors, and its own default codes stay (renamed, never archived)', async () => {
    expect(await deskAs(ctx, uk.id, 'listContacts')).toEqual([]);
    await expect(deskAs(ctx, uk.id, 'archiveCategory', { code: '6200' })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('default codes') });
  });

  it("is what the agent API's categories list says, with the VAT codes", async () => {
    const org = (await L.findOrganization(w.ledger, 'loch'))!;
    const token = (await L.createToken(w.ledger, org.seq, { name: 'bot', scopes: ['read'] })).token;
    const res = await call(w.base, 'GET', '/categories', { token });
    expect(res.status, res.text).toBe(200);
    operations.find((o) => o.operationId === 'list_categories')!.output.parse(res.json);
    const byCode = new Map(res.json.data.map((c: L.Category) => [c.code, c]));
    expect(byCode.get('4000')).toMatchObject({ name: 'Sales', type: 'revenue', taxCode: 'S' });
    expect(byCode.get('6100')).toMatchObject({ name: 'Wages and salaries', type: 'expense', parentCode: '6000', taxCode: 'NV' });
    expect(byCode.get('6240')).toMatchObject({ name: 'Insurance', taxCode: 'E' });
    expect(byCode.has('5300')).toBe(false);
  });

  it('in GB without VAT: the UK chart without VAT codes, which registering for VAT later gives them', async () => {
    const croft = await create({ slug: 'croft', currency: 'GBP', country: 'gb' });
    expect([croft.chartTemplate, croft.country]).toEqual(['uk-small-business', 'GB']);
    expect((await chartOf(croft)).every((c) => c.taxCode === null)).toBe(true);
    await deskAs(ctx, croft.id, 'setupTax', { set: 'uk-vat' });
    const chart = await chartOf(croft);
    expect(chart.find((c) => c.code === '6200')?.taxCode).toBe('E');
    expect(chart.find((c) => c.code === '4000')?.taxCode).toBe('S');
  });
});

describe('an organization elsewhere', () => {
  it('keeps the default chart and its seed vendors (a US one, a plain sales tax one)', async () => {
    for (const input of [
      { slug: 'acme-us', currency: 'USD' },
      { slug: 'acme-tax', currency: 'USD', taxSet: 'plain' },
    ]) {
      const org = await create(input);
      expect(org.chartTemplate).toBe('default');
      expect((await chartOf(org)).map((c) => c.code)).toEqual(DEFAULT_CODES);
      expect((await deskAs<{ name: string }[]>(ctx, org.id, 'listContacts')).map((c) => c.name)).toContain('Figma');
    }
  });

  it('takes a template by name (--chart), and refuses one it does not know, naming the field', async () => {
    expect((await create({ slug: 'uk-by-name', currency: 'USD', chart: 'uk-small-business' })).chartTemplate).toBe('uk-small-business');
    expect((await create({ slug: 'uk-vat-default', currency: 'GBP', taxSet: 'uk-vat', chart: 'default' })).chartTemplate).toBe('default');
    await expect(create({ slug: 'nope', chart: 'nope' })).rejects.toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field: 'chart' })] });
  });

  it('an organization made before templates (no template, as migration 0039 leaves it) keeps its chart and its default codes', async () => {
    const before = w.orgA;
    await w.ledger.write(() => w.ledger.stmt('UPDATE organizations SET chart_template = NULL WHERE seq = ?').run(before.seq));
    expect((await L.organizationBySeq(w.ledger, before.seq)).chartTemplate).toBe(null);
    const chart = await L.deskChart(w.ledger, before.seq);
    expect(chart.filter((c) => c.isDefault).map((c) => c.code)).toEqual(DEFAULT_CODES);
    expect(chart.some((c) => c.retainedEarnings)).toBe(false);
  });
});
