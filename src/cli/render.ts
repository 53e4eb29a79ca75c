// Human output of API answers: lists as aligned tables, single items as
// key/value lines. (`--json` bypasses this and prints the body as sent.)
type Json = unknown;
type Row = Record<string, Json>;

const MAX_CELL = 60;

function cell(value: Json): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    const text = JSON.stringify(value);
    return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
  }
  return String(value);
}

const isRow = (value: Json): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

export function table(rows: Row[]): string[] {
  if (rows.length === 0) return ['(none)'];
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const numeric = columns.map((c) => rows.every((r) => r[c] === null || typeof r[c] === 'number'));
  const cells = rows.map((r) => columns.map((c) => cell(r[c]).replace(/\s+/g, ' ')));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => (numeric[i] ? v.padStart(widths[i]) : v.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)];
}

export function keyValues(item: Row, indent = ''): string[] {
  const width = Math.max(...Object.keys(item).map((k) => k.length));
  return Object.entries(item).flatMap(([key, value]) => {
    if (Array.isArray(value) && value.every(isRow)) {
      return [`${indent}${key}:`, ...table(value as Row[]).map((l) => `${indent}  ${l}`)];
    }
    if (isRow(value)) {
      return [`${indent}${key}:`, ...keyValues(value, `${indent}  `)];
    }
    return [`${indent}${key.padEnd(width)}  ${Array.isArray(value) ? JSON.stringify(value) : cell(value)}`];
  });
}

function footer(meta: Row, shown: number): string {
  if (typeof meta.totalCount === 'number') {
    const from = Number(meta.offset ?? 0);
    return shown === 0 ? `0 of ${meta.totalCount}` : `${from + 1}-${from + shown} of ${meta.totalCount}`;
  }
  return `${shown} shown`;
}

/** The API's envelopes: {data: [...], meta}, {data: {...}}; anything else as indented JSON. */
export function render(body: Json): string[] {
  if (isRow(body) && 'data' in body) {
    const { data, meta } = body;
    if (Array.isArray(data)) return [...table(data as Row[]), ...(isRow(meta) ? ['', footer(meta, data.length)] : [])];
    if (isRow(data)) return keyValues(data);
  }
  return [JSON.stringify(body, null, 2)];
}
