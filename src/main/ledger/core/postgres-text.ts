// The domain's SQL as PostgreSQL reads it. Kept apart from the driver so that
// the replay script and the tests read it without opening a pool.

/**
 * `?` placeholders as `$1, $2...` and `@name` ones as one `$n` per name (not inside quoted strings or names), and
 * SQLite's planner hint `INDEXED BY <index>` left out (PostgreSQL's planner takes no hints; the index is there).
 * Answers the text and, for named placeholders, the names in `$n` order.
 */
export function numbered(sql: string): { text: string; names: string[] | null; count: number } {
  return placeholders(sql.replace(/\s+INDEXED BY\s+\w+/gi, ''));
}

function placeholders(sql: string): { text: string; names: string[] | null; count: number } {
  let out = '';
  let n = 0;
  let names: string[] | null = null;
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '?') {
      out += `$${++n}`;
      continue;
    } else if (ch === '@' && /[A-Za-z_]/.test(sql[i + 1] ?? '')) {
      const name = /^[A-Za-z_]\w*/.exec(sql.slice(i + 1))![0];
      names ??= [];
      let at = names.indexOf(name);
      if (at < 0) at = names.push(name) - 1;
      out += `$${at + 1}`;
      i += name.length;
      continue;
    }
    out += ch;
  }
  return { text: out, names, count: names ? names.length : n };
}

/**
 * The values in `$n` order, as better-sqlite3 binds them: named placeholders take theirs from the one object
 * passed; an array passed alone to a statement of several placeholders is their values (to one of a single
 * placeholder, it is that placeholder's value: a list read with `= ANY(?)`).
 */
export function orderedParams(names: string[] | null, params: unknown[], count: number): unknown[] {
  if (!names) return params.length === 1 && Array.isArray(params[0]) && count > 1 ? (params[0] as unknown[]) : params;
  const values = (params[0] ?? {}) as Record<string, unknown>;
  return names.map((name) => {
    if (!(name in values)) throw new RangeError(`no value for the named parameter @${name}`);
    return values[name];
  });
}
