// An organization's tax periods (issue 28): monthly or quarterly, counted
// from a start month (a quarter from April: Apr-Jun, Jul-Sep...), and the
// basis of its returns. The current period is the one after the last filed
// return, or (none filed) the one a date falls in: what the Tax screen and
// `report tax` show when no dates are given.
import { appendAudit, type Human } from '../access/audit';
import { organizationBySeq } from '../access/organizations';
import type { Ledger } from '../core/sqlite/open';
import { invalid } from '../core/errors';
import { addDays } from '../../../shared/dates';
import { today } from '../core/clock';
import { lastFiledTo } from './return';

export const TAX_PERIODS = ['monthly', 'quarterly'] as const;
export const TAX_BASES = ['cash', 'accrual'] as const;
export type TaxPeriod = (typeof TAX_PERIODS)[number];
export type TaxBasis = (typeof TAX_BASES)[number];

export interface TaxSettings {
  period: TaxPeriod;
  /** The month (1-12) the periods count from. */
  startMonth: number;
  basis: TaxBasis;
}

/** An organization's row's tax settings columns. */
export interface TaxSettingsRow {
  tax_period: TaxPeriod;
  tax_period_start: number;
  tax_basis: TaxBasis;
}

export const TAX_SETTINGS_COLUMNS = 'tax_period, tax_period_start, tax_basis';

export const taxSettingsOf = (r: TaxSettingsRow): TaxSettings => ({ period: r.tax_period, startMonth: Number(r.tax_period_start), basis: r.tax_basis });

export async function taxSettings(ledger: Ledger, orgSeq: number): Promise<TaxSettings> {
  return taxSettingsOf((await ledger.stmt(`SELECT ${TAX_SETTINGS_COLUMNS} FROM organizations WHERE seq = ?`).get(orgSeq)) as TaxSettingsRow);
}

export async function updateTaxSettings(ledger: Ledger, orgSeq: number, actor: Human, changes: Partial<TaxSettings>): Promise<TaxSettings> {
  return ledger.write(async () => {
    const next = { ...(await taxSettings(ledger, orgSeq)), ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) } as TaxSettings;
    if (!TAX_PERIODS.includes(next.period)) throw invalid([{ field: 'period', message: 'is monthly or quarterly' }]);
    if (!Number.isInteger(next.startMonth) || next.startMonth < 1 || next.startMonth > 12) throw invalid([{ field: 'startMonth', message: 'is a month, 1 to 12' }]);
    if (!TAX_BASES.includes(next.basis)) throw invalid([{ field: 'basis', message: 'is cash or accrual' }]);
    await ledger.stmt('UPDATE organizations SET tax_period = ?, tax_period_start = ?, tax_basis = ? WHERE seq = ?').run(next.period, next.startMonth, next.basis, orgSeq);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'tax.settings',
      targetType: 'organization',
      targetId: (await organizationBySeq(ledger, orgSeq)).id,
      summary: `Tax returns ${next.period} from month ${next.startMonth}, ${next.basis} basis`,
    });
    return next;
  });
}

const monthStart = (year: number, month0: number) => new Date(Date.UTC(year, month0, 1)).toISOString().slice(0, 10);

/** The period (by the settings) a date falls in. */
export function periodOf(settings: TaxSettings, date: string): { from: string; to: string } {
  const length = settings.period === 'monthly' ? 1 : 3;
  const year = Number(date.slice(0, 4));
  const month0 = Number(date.slice(5, 7)) - 1;
  const offset = (((month0 - (settings.startMonth - 1)) % length) + length) % length;
  const from = monthStart(year, month0 - offset);
  return { from, to: addDays(monthStart(year, month0 - offset + length), -1) };
}

/** The period to file next: after the last filed return (`filed`: its last day, '' when none), or the one `date` falls in. */
export const periodToFile = (settings: TaxSettings, filed: string, date: string): { from: string; to: string } => periodOf(settings, filed ? addDays(filed, 1) : date);

/** The period to file next: after the last filed return, or the one `today` falls in. */
export async function currentTaxPeriod(ledger: Ledger, orgSeq: number, date = today()): Promise<{ from: string; to: string }> {
  return periodToFile(await taxSettings(ledger, orgSeq), await lastFiledTo(ledger, orgSeq), date);
}
