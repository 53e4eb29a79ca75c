// A description's shape: each digit 0-9 written '#' (migration 0004). Bank
// descriptions differ mostly in their numbers (references, dates, card
// digits), so an organization has few shapes: description filters count over
// them (transactions.ts), rules match them (rules/), totals keep them (totals/).
export const descriptionShape = (description: string): string => description.replace(/[0-9]/g, '#');
