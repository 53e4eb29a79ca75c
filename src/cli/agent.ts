// Agent commands, one per registry operation (list_transactions and
// list-transactions alike): flags from the operation's input schema, help from
// its description, the request from its method and path. Never written twice.
import { inputOf, objectShape, operations, type Operation } from '../main/api/registry';
import { resolveConnection, send } from './client';
import { checkInput, convert, flagHelp, kebab, parseFlags, schemaFields, type Field } from './flags';
import { render } from './render';
import { UsageError } from './usage';

type Out = (line: string) => void;

export { kebab };

/** Operations reachable by command name, in both spellings. */
export const agentCommands = new Map(
  operations.flatMap(
    (op) =>
      [
        [op.operationId, op],
        [kebab(op.operationId), op],
      ] as [string, Operation][],
  ),
);

const fieldsOf = (op: Operation): Field[] => schemaFields(inputOf(op));
const helpOf = (field: Field) => flagHelp(field, field.name === 'evidence' ? 'json|type=value[:detail]' : undefined);

export function commandUsage(op: Operation): string {
  const fields = fieldsOf(op);
  const positional = op.params ? ` <${Object.keys(objectShape(op.params))[0]}>` : '';
  return [
    `Usage: ledgerdesk ${op.operationId}${positional} [flags]   (or ${kebab(op.operationId)})`,
    '',
    `${op.title}. ${op.description}`,
    '',
    `${op.method} /api/v1${op.path}${op.scope ? `, needs the "${op.scope}" scope` : ', no token needed'}.`,
    ...(fields.length ? ['', 'Flags:', ...fields.map(helpOf)] : []),
    ...(fields.some((f) => f.name === 'evidence')
      ? ['', '--evidence takes a JSON array or object, or repeat it as type=value[:detail], e.g. --evidence counterparty_match=AWS:"Invoice AWS-1"']
      : []),
    '',
    ...(op.body ? ['', '--idempotency-key <k>: run this write at most once: the same key and flags again get the first answer back (kept 24 hours).'] : []),
    'Common flags: --json (print the response body as sent), --token <t>, --url <u>, --help.',
  ].join('\n');
}

function parseEvidence(values: string[], usage: string): unknown[] {
  return values.flatMap((value) => {
    const trimmed = value.trim();
    if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
      try {
        const parsed: unknown = JSON.parse(trimmed);
        return Array.isArray(parsed) ? parsed : [parsed];
      } catch {
        throw new UsageError(`--evidence: not valid JSON: ${value}`, usage);
      }
    }
    const match = /^([a-z_]+)=([^:]*)(?::(.*))?$/s.exec(value);
    if (!match || !match[2]) throw new UsageError(`--evidence: expected JSON or type=value[:detail], got "${value}"`, usage);
    return [{ type: match[1], value: match[2], ...(match[3] !== undefined ? { detail: match[3] } : {}) }];
  });
}

const convertField = (field: Field, raw: (string | boolean)[], usage: string): unknown =>
  field.name === 'evidence' ? parseEvidence(raw.map(String), usage) : convert(field, raw, usage);

/** argv -> the operation's input, validated by the same zod schema as the server's. */
export function parseCommand(op: Operation, args: string[]) {
  const usage = commandUsage(op);
  const fields = fieldsOf(op);
  const common = {
    json: { type: 'boolean' },
    help: { type: 'boolean' },
    token: { type: 'string' },
    url: { type: 'string' },
    ...(op.body ? { 'idempotency-key': { type: 'string' as const } } : {}),
  } as const;
  const { values, positionals, given } = parseFlags(args, fields, common, usage);
  const input: Record<string, unknown> = {};
  const rest = [...positionals];
  if (op.params && rest.length) input[fields[0].name] = rest.shift();
  if (rest.length) throw new UsageError(`Unexpected argument "${rest[0]}".`, usage);
  for (const f of fields) {
    const raw = given(f);
    if (raw.length) input[f.name] = convertField(f, raw, usage);
  }
  const flags = {
    json: values.json === true,
    help: values.help === true,
    token: values.token as string | undefined,
    url: values.url as string | undefined,
    idempotencyKey: values['idempotency-key'] as string | undefined,
  };
  if (!flags.help) checkInput(inputOf(op), input, usage);
  return { flags, input, usage };
}

function request(op: Operation, input: Record<string, unknown>): { path: string; body?: unknown } {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(input[name])));
  if (op.body) return { path, body: input };
  if (!op.query) return { path };
  const query = new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)])).toString();
  return { path: query ? `${path}?${query}` : path };
}

/** Runs one agent command; 0 on success, 1 on an API error (printed with its code and details). */
export async function runAgentCommand(op: Operation, args: string[], out: Out, err: Out): Promise<number> {
  const { flags, input, usage } = parseCommand(op, args);
  if (flags.help) {
    out(usage);
    return 0;
  }
  const connection = resolveConnection(flags);
  if (op.scope && !connection.token) {
    err('ledgerdesk: no token. Pass --token, set LEDGERDESK_TOKEN, or run "ledgerdesk login".');
    return 1;
  }
  // Only the fields the user gave: the server applies its own defaults (limit 50).
  const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const { path, body } = request(op, given);
  const answer = await send(connection, op.method, path, body, flags.idempotencyKey);
  if (flags.json) out(answer.text);
  if (answer.replayed) err('ledgerdesk: the answer kept for this --idempotency-key (nothing was done again).');
  if (answer.status >= 400) {
    reportApiError(answer.status, answer.text, err);
    return 1;
  }
  if (op.alsoAnswers && answer.status === op.alsoAnswers.status) err(`ledgerdesk: ${op.alsoAnswers.description}`);
  if (!flags.json) render(JSON.parse(answer.text)).forEach((line) => out(line));
  return 0;
}

export function reportApiError(status: number, text: string, err: Out): void {
  let error: { code?: string; message?: string; details?: unknown } | undefined;
  try {
    error = (JSON.parse(text) as { error?: typeof error }).error;
  } catch {
    /* not our envelope: reported by status below */
  }
  if (!error) return err(`ledgerdesk: the server answered HTTP ${status}.`);
  err(`ledgerdesk: ${error.code} (HTTP ${status}): ${error.message}`);
  if (Array.isArray(error.details)) {
    for (const d of error.details as { field?: string; message?: string }[]) err(d.field ? `  ${d.field}: ${d.message}` : `  ${JSON.stringify(d)}`);
  } else if (error.details !== null && typeof error.details === 'object') {
    for (const [key, value] of Object.entries(error.details)) err(`  ${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
}
