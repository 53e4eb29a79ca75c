// The chart templates a new organization may start with: adding one is a module and a line here.
// The first that fits a new organization is taken when none is named; the default (fitting every one) is last.
import { defaultTemplate } from './default';
import type { ChartTemplate, Newcomer } from './template';
import { ukSmallBusinessTemplate } from './uk-small-business';
import { invalid } from '../../core/errors';
import type { Ledger } from '../../core/sqlite/open';

export type { ChartTemplate, TemplateCategory } from './template';

export const CHART_TEMPLATES: ChartTemplate[] = [ukSmallBusinessTemplate, defaultTemplate];

export const CHART_TEMPLATE_IDS = CHART_TEMPLATES.map((t) => t.id);

/** The template an organization keeps (null: made before templates, the default chart). */
export const templateOf = (id: string | null): ChartTemplate => CHART_TEMPLATES.find((t) => t.id === id) ?? defaultTemplate;

/** The one named, or the first that fits the newcomer. */
export function chooseTemplate(named: string | undefined, org: Newcomer): ChartTemplate {
  if (named === undefined) return CHART_TEMPLATES.find((t) => !t.fits || t.fits(org))!;
  const chosen = CHART_TEMPLATES.find((t) => t.id === named);
  if (!chosen) throw invalid([{ field: 'chart', message: `is one of ${CHART_TEMPLATE_IDS.join(', ')}` }]);
  return chosen;
}

/**
 * The categories of an organization's chart template that have no default tax code take the template's (issue 50),
 * where the organization has that code, not archived: a UK chart's on setting up UK VAT, at its creation or once it
 * registers (tax/codes.ts). Answers how many took one.
 */
export async function giveTemplateTaxCodes(ledger: Ledger, orgSeq: number, template: string | null): Promise<number> {
  let given = 0;
  const take = ledger.stmt(
    `UPDATE categories SET default_tax_code_seq = (SELECT seq FROM tax_codes WHERE org_seq = ? AND lower(code) = lower(?) AND archived_at IS NULL)
     WHERE org_seq = ? AND code = ? AND default_tax_code_seq IS NULL AND EXISTS (SELECT 1 FROM tax_codes WHERE org_seq = ? AND lower(code) = lower(?) AND archived_at IS NULL)`,
  );
  for (const c of templateOf(template).chart) if (c.taxCode) given += (await take.run(orgSeq, c.taxCode, orgSeq, c.code, orgSeq, c.taxCode)).changes;
  return given;
}
