// One description from the pieces a bank gives (payee, memo, remittance text):
// trimmed, whitespace collapsed, a piece that another already contains left
// out (banks often repeat a truncated name in the memo), joined with " - ".
export const DESCRIPTION_MAX = 500;

const clean = (s: string | null | undefined): string => {
  const text = (s ?? '').trim();
  return /\s\s|[\t\n\r]/.test(text) ? text.replace(/\s+/g, ' ') : text;
};

export function joinDescription(parts: (string | null | undefined)[]): string {
  if (parts.length === 1) {
    const only = clean(parts[0]);
    return only.length > DESCRIPTION_MAX ? `${only.slice(0, DESCRIPTION_MAX - 1)}…` : only;
  }
  const pieces = parts.map(clean).filter(Boolean);
  const kept = pieces.filter((piece, i) => {
    const lower = piece.toLowerCase();
    return !pieces.some((other, j) => {
      if (j === i) return false;
      const o = other.toLowerCase();
      // Drop a piece another contains; of two equal pieces keep the first.
      return o.includes(lower) && (o !== lower || j < i);
    });
  });
  const text = kept.join(' - ');
  return text.length > DESCRIPTION_MAX ? `${text.slice(0, DESCRIPTION_MAX - 1)}…` : text;
}
