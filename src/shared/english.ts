// English as the messages write it, for words that arrive as values ("invoice", "bill", "expense").

/** "an invoice", "a bill", "an expense category": the article a word takes, by its first letter. */
export const withArticle = (word: string): string => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
