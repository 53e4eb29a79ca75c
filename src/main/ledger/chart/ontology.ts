// The public ontology, kept as data in db/, and its JSON-LD rendering.
import context from '../../../../db/ontology-context.json';
import ontology from '../../../../db/ontology.json';

export type { CategoryType } from '../../../../db/values';
import type { CategoryType } from '../../../../db/values';

export interface ChartEntry {
  code: string;
  name: string;
  type: CategoryType;
  parentCode: string | null;
  synonyms: string[];
}

export interface SeedCounterparty {
  id: string;
  name: string;
  kind: string;
  aliases: string[];
  defaultCode: string;
}

export const ONTOLOGY_VERSION: string = ontology.version;
export const defaultChart = ontology.chart as ChartEntry[];
export const seedCounterparties = ontology.counterparties as SeedCounterparty[];

const BASE = 'https://ledgerdesk.app/ontology/v1/';

export function contextDocument(): object {
  return { '@context': context };
}

/** The whole ontology: classes, chart codes with synonyms, seed counterparties. No organization data. */
export function ontologyDocument(): object {
  return {
    '@context': context,
    '@id': `${BASE}`,
    '@type': 'ldk:Ontology',
    version: ONTOLOGY_VERSION,
    '@graph': [
      ...ontology.classes.map((c) => ({ '@id': `ldk:${c.id}`, '@type': 'Class', label: c.label, comment: c.comment })),
      ...defaultChart.map((c) => ({
        '@id': `${BASE}category/${c.code}`,
        '@type': ['ldk:Category', 'skos:Concept'],
        code: c.code,
        name: c.name,
        categoryType: c.type,
        parentCode: c.parentCode ?? undefined,
        broader: c.parentCode ? `${BASE}category/${c.parentCode}` : undefined,
        synonyms: c.synonyms,
      })),
      ...seedCounterparties.map((p) => ({
        '@id': `${BASE}counterparty/${p.id}`,
        '@type': 'ldk:Counterparty',
        name: p.name,
        counterpartyKind: p.kind,
        aliases: p.aliases,
        defaultCode: p.defaultCode,
        defaultCategory: `${BASE}category/${p.defaultCode}`,
      })),
    ],
  };
}
