// zod issues -> the Error envelope's details: one { field, message } per problem.
import type * as z from 'zod';
import { invalid, type FieldIssue } from '../ledger/core/errors';

const fieldName = (path: PropertyKey[]): string =>
  path.reduce<string>((acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)), '');

export function toFieldIssues(error: z.ZodError, where: string): FieldIssue[] {
  const seen = new Set<string>();
  return error.issues.flatMap((issue): FieldIssue[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: fieldName([...issue.path, key]), message: 'is not a known field' }));
    }
    const field = fieldName(issue.path) || where;
    if (seen.has(field)) return []; // one message per field: the first is the most basic
    seen.add(field);
    const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
    return [{ field, message: missing ? 'is required' : issue.message }];
  });
}

/** Parses one part of the input (path, query or body); a failure is a 400 naming every field. */
export function parsePart<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalid(toFieldIssues(result.error, where));
}
