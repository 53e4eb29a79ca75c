// Flags from a zod input schema, for the agent commands (api registry) and the
// owner commands (desk operations) alike: one flag per field, in kebab or camel
// case, typed by the field's JSON Schema, checked by the same schema after.
import { parseArgs } from 'node:util';
import type * as z from 'zod';
import { inlineJsonSchema, type Json } from '../main/api/json-schema';
import { objectShape } from '../main/api/operation';
import { toFieldIssues } from '../main/api/validation';
import { UsageError } from './usage';

export const kebab = (name: string): string => name.replace(/_/g, '-').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export interface Field {
  name: string;
  flag: string;
  schema: Json;
  required: boolean;
}

export function schemaFields(schema: z.ZodType, omit: string[] = []): Field[] {
  const json = inlineJsonSchema(schema, 'input') as { properties?: Record<string, Json> };
  const shape = objectShape(schema);
  return Object.entries(json.properties ?? {})
    .filter(([name]) => !omit.includes(name))
    .map(([name, field]) => ({ name, flag: kebab(name), schema: field, required: !(shape[name] as z.ZodType).safeParse(undefined).success }));
}

/**
 * A field's JSON type; a nullable one (["integer", "null"], or anyOf with null) is its one other type. A union of
 * several (a typed amount: number or text) is read as text: the schema then reads the text its own way.
 */
export function typeOf(schema: Json): string {
  const type = schema.type ?? (schema.anyOf as Json[] | undefined)?.map((s) => s.type);
  const types = [...new Set((Array.isArray(type) ? type : [type]).filter((t) => t && t !== 'null'))] as string[];
  return types.length === 1 ? types[0] : 'string';
}

export function flagHelp(field: Field, kind = (field.schema.enum as string[] | undefined)?.join('|') ?? typeOf(field.schema)): string {
  const left = kind === 'boolean' ? `  --${field.flag}` : `  --${field.flag} <${kind}>${field.required ? ' (required)' : ''}`;
  const description = field.schema.description as string | undefined;
  return description ? `${left}\n      ${description}` : left;
}

/**
 * One flag's values (it may be repeated) as the field's type: numbers,
 * booleans, lists, JSON objects, text. A list is its repeated flags, each
 * split on commas, unless `whole` (values that may hold commas: a split's
 * "5100=-1,234.56:memo").
 */
export function convert(field: Field, raw: (string | boolean)[], usage: string, whole = false): unknown {
  const kind = typeOf(field.schema);
  if (kind === 'boolean') return true;
  const texts = raw.map(String);
  if (kind === 'array' && whole) return texts;
  if (kind === 'array')
    return texts
      .flatMap((t) => t.split(','))
      .map((t) => t.trim())
      .filter(Boolean);
  if (texts.length > 1) throw new UsageError(`--${field.flag} was given ${texts.length} times.`, usage);
  const [value] = texts;
  if (kind === 'number' || kind === 'integer') {
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number)) throw new UsageError(`--${field.flag} must be a number, not "${value}".`, usage);
    return number;
  }
  if (kind === 'object') {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      throw new UsageError(`--${field.flag} takes JSON, e.g. '{"0": "Checking"}'.`, usage);
    }
  }
  return value;
}

/** `--amount -4.5` -> `--amount=-4.5`, which parseArgs would otherwise take for a flag. */
export const joinNegativeValues = (args: string[]): string[] =>
  args.reduce<string[]>((acc, arg) => {
    const last = acc.at(-1);
    if (/^-\d/.test(arg) && last?.startsWith('--') && !last.includes('=')) acc[acc.length - 1] = `${last}=${arg}`;
    else acc.push(arg);
    return acc;
  }, []);

type Options = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

/** parseArgs with a flag (both spellings) per field besides the common ones; usage errors exit 2. */
export function parseFlags(args: string[], fields: Field[], common: Options, usage: string) {
  const options: Options = { ...common };
  for (const f of fields) {
    const type = typeOf(f.schema) === 'boolean' ? 'boolean' : 'string';
    options[f.flag] = { type, multiple: true };
    if (f.name !== f.flag) options[f.name] = { type, multiple: true };
  }
  try {
    const parsed = parseArgs({ args: joinNegativeValues(args), options, allowPositionals: true, strict: true });
    const values = parsed.values as Record<string, string | boolean | (string | boolean)[] | undefined>;
    const given = (f: Field) => [...((values[f.flag] as (string | boolean)[]) ?? []), ...(f.name !== f.flag ? ((values[f.name] as (string | boolean)[]) ?? []) : [])];
    return { values, positionals: parsed.positionals, given };
  } catch (error) {
    throw new UsageError((error as Error).message, usage);
  }
}

/** The same zod schema the operation runs with; each refused field named as its flag. */
export function checkInput<T>(schema: z.ZodType<T>, input: Record<string, unknown>, usage: string, flagOf: (field: string) => string = kebab): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = toFieldIssues(result.error, 'arguments').map((i) => {
    const top = i.field.split(/[.[]/)[0];
    return `  --${flagOf(top)}${i.field !== top ? ` (${i.field})` : ''}: ${i.message}`;
  });
  throw new UsageError(`Invalid flags:\n${issues.join('\n')}`, usage);
}
