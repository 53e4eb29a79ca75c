// What a chart template is (issue 50): the categories and seed contacts a new organization starts with,
// each category with its default tax code by the code a ready-made tax set gives it.
import type { CategoryRole } from '../../../../../db/values';
import type { ChartEntry, SeedCounterparty } from '../ontology';

export interface TemplateCategory extends ChartEntry {
  /** Its default tax code, by code (S, E, NV...), taken when the organization has it (its tax set). */
  taxCode?: string;
  /** An expense reported as cost of sales, above gross profit. */
  costOfSales?: boolean;
  /** Its part in the books: the retained earnings account. */
  role?: CategoryRole;
}

/** Who a new organization is, as far as choosing its chart goes. */
export interface Newcomer {
  taxSet: string | null;
  country: string | null;
}

export interface ChartTemplate {
  /** As `org create --chart` names it. */
  id: string;
  /** As the Organizations screen and the audit log say it. */
  name: string;
  /** Whether it suits a new organization none was chosen for (none: the default, taken last). */
  fits?: (org: Newcomer) => boolean;
  chart: TemplateCategory[];
  counterparties: SeedCounterparty[];
}
