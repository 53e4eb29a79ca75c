// The default chart: the public ontology's codes (db/ontology.json), which agents are told about at
// /ontology.jsonld, with its seed vendors. Kept for every organization no other template fits.
import { defaultChart, seedCounterparties } from '../ontology';
import type { ChartTemplate } from './template';

export const defaultTemplate: ChartTemplate = {
  id: 'default',
  name: "the ontology's default chart",
  chart: defaultChart,
  counterparties: seedCounterparties,
};
