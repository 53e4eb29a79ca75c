// Text for people: short excerpts in audit summaries and messages.
export const excerpt = (text: string, max = 80): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
