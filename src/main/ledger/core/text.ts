// Text for people: short excerpts in audit summaries and messages.
/** A name as it is compared: trimmed, any case (accents kept; SQLite's lower() folds ASCII only). */
export const foldName = (s: string): string => s.trim().toLocaleLowerCase('en');

export const excerpt = (text: string, max = 80): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A name no other one takes: the wanted one, else with a number ("Checking (2)"), the suffix as the caller's format needs it. */
export function freeName(wanted: string, taken: (name: string) => boolean, suffix = (n: number) => ` (${n})`): string {
  let name = wanted;
  for (let n = 2; taken(name); n++) name = `${wanted}${suffix(n)}`;
  return name;
}

/** freeName where whether a name is taken is read from the books. */
export async function freeNameAsync(wanted: string, taken: (name: string) => Promise<boolean>, suffix = (n: number) => ` (${n})`): Promise<string> {
  let name = wanted;
  for (let n = 2; await taken(name); n++) name = `${wanted}${suffix(n)}`;
  return name;
}
