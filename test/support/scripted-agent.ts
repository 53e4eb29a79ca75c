// A scripted agent, as an LLM agent would work through the categorization
// backlog over MCP with the official SDK client: load the chart and the
// ontology once, page through the uncategorized rows 50 at a time, and propose
// a category for each row it can place (counterparty aliases and category
// synonyms from the server, plus the world knowledge a model brings, here a
// small keyword table), with a reason and evidence. Used by
// test/agent-workflow.test.ts and bench/agent.ts.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

export interface AgentRun {
  /** Uncategorized rows when the agent started. */
  rows: number;
  calls: number;
  proposals: number;
  /** Rows it could not place, left for a person. */
  skipped: number;
  /** Tool results with isError, as "tool: message". */
  errors: string[];
  ms: number;
}

/** What a model knows about vendors the ontology does not list (most specific first). */
const KNOWLEDGE: [string, string][] = [
  ['stripe charge', '4010'],
  ['invoice payment', '4000'],
  ['customer payment', '4000'],
  ['wire from', '4000'],
  ['uber', '5000'],
  ['lufthansa', '5000'],
  ['hotel', '5000'],
  ['upwork', '5000'],
  ['contractor', '5000'],
  ['legal services', '5000'],
  ['accounting', '5000'],
  ['github', '5100'],
  ['slack', '5100'],
  ['notion', '5100'],
  ['hetzner', '5300'],
  ['digitalocean', '5300'],
  ['office rent', '5200'],
  ['rent ', '5200'],
];

type Evidence = { type: 'counterparty_match' | 'keyword'; value: string };

export async function categorizeBacklog(client: Client): Promise<AgentRun> {
  const started = performance.now();
  const run: AgentRun = { rows: 0, calls: 0, proposals: 0, skipped: 0, errors: [], ms: 0 };
  const call = async (name: string, args: Record<string, unknown>) => {
    run.calls++;
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) run.errors.push(`${name}: ${(result.content as { text: string }[])[0].text}`);
    return result.structuredContent as any;
  };
  const chart = (await call('list_categories', {})).data as { code: string; name: string; type: string; synonyms: string[] }[];
  const ontology = await call('get_ontology', {});
  const counterparties = (ontology['@graph'] as any[]).filter((n) => n['@type'] === 'ldk:Counterparty') as { name: string; aliases: string[]; defaultCode: string }[];
  const fold = (s: string) => s.toLowerCase();
  const typeOf = new Map(chart.map((c) => [c.code, c.type]));

  function place(description: string, amount: number): { code: string; evidence: Evidence; reason: string } | null {
    const text = fold(description);
    const fitsSign = (code: string) => typeOf.get(code) === (amount < 0 ? 'expense' : 'revenue');
    for (const [word, code] of KNOWLEDGE) {
      if (text.includes(word) && fitsSign(code))
        return { code, evidence: { type: 'keyword', value: word.trim() }, reason: `"${word.trim()}" names a known kind of ${typeOf.get(code)}` };
    }
    for (const c of counterparties) {
      const alias = c.aliases.find((a) => text.includes(fold(a)));
      if (alias && fitsSign(c.defaultCode)) return { code: c.defaultCode, evidence: { type: 'counterparty_match', value: alias }, reason: `${c.name}, a known counterparty` };
    }
    for (const c of chart) {
      const word = [c.name, ...c.synonyms].find((w) => text.includes(fold(w)));
      if (word && fitsSign(c.code)) return { code: c.code, evidence: { type: 'keyword', value: word }, reason: `The description says "${word}"` };
    }
    return null;
  }

  for (let offset = 0; offset === 0 || offset < run.rows; offset += 50) {
    const page = await call('list_transactions', { status: 'uncategorized', limit: 50, offset });
    if (offset === 0) run.rows = page.meta.totalCount;
    for (const row of page.data as { id: string; description: string; amount: number }[]) {
      const placed = place(row.description, row.amount);
      if (!placed) {
        run.skipped++;
        continue;
      }
      await call('propose_categorization', { transactionId: row.id, categoryCode: placed.code, confidence: 0.85, reason: placed.reason, evidence: [placed.evidence] });
      run.proposals++;
    }
  }
  run.ms = performance.now() - started;
  return run;
}
