// A UK small business's chart (issue 50), for an organization started with the UK VAT tax set or in GB:
// the nominal codes a UK bookkeeper knows (Sage's ranges: 0 fixed assets, 1 current assets, 2 liabilities,
// 3 capital, 4 sales, 5 cost of sales, 6-8 overheads), each with the VAT code UK practice gives it.
// Decisions: rent is exempt (E) by default: a commercial lease is exempt unless the landlord opted to tax,
// and claiming VAT nobody charged is the error HMRC penalises (Xero's template says 20%; change it where the
// landlord's invoices show VAT). Trade debtors, trade creditors and the VAT account are the books' own
// (Accounts receivable, Accounts payable, the tax control account), so the chart holds only the other ones.
// No seed vendors: they were a SaaS business's.
import type { ChartTemplate, TemplateCategory } from './template';

const entry = (code: string, name: string, type: TemplateCategory['type'], more: Partial<TemplateCategory> = {}): TemplateCategory => ({
  code,
  name,
  type,
  parentCode: null,
  synonyms: [],
  ...more,
});

const overhead = (code: string, name: string, taxCode: string, synonyms: string[] = []): TemplateCategory =>
  entry(code, name, 'expense', { parentCode: '6000', taxCode, synonyms });

const chart: TemplateCategory[] = [
  entry('0010', 'Fixed assets', 'asset', { taxCode: 'S' }),
  entry('0020', 'Plant and machinery', 'asset', { parentCode: '0010', taxCode: 'S' }),
  entry('0030', 'Office equipment and computers', 'asset', { parentCode: '0010', taxCode: 'S', synonyms: ['Computers', 'Equipment'] }),
  entry('0050', 'Motor vehicles', 'asset', { parentCode: '0010' }),
  entry('0090', 'Accumulated depreciation', 'asset', { parentCode: '0010' }),
  entry('1100', 'Other debtors and prepayments', 'asset', { synonyms: ['Prepayments', 'Deposits paid'] }),
  entry('2100', 'Other creditors and accruals', 'liability', { synonyms: ['Accruals'] }),
  entry('2210', 'PAYE and NI', 'liability', { synonyms: ['PAYE', 'HMRC PAYE', 'National Insurance payable'] }),
  entry('2230', 'Pensions payable', 'liability', { synonyms: ['NEST', 'Pension contributions payable'] }),
  entry('2300', 'Loans', 'liability', { synonyms: ['Bank loan'] }),
  entry('2310', "Directors' loan account", 'liability', { synonyms: ['Director loan', 'DLA'] }),
  entry('3000', 'Share capital', 'equity'),
  entry('3100', 'Capital introduced', 'equity', { synonyms: ['Funds introduced'] }),
  entry('3200', 'Retained earnings', 'equity', { role: 'retained_earnings', synonyms: ['Profit and loss account', 'Reserves'] }),
  entry('3260', 'Drawings', 'equity', { synonyms: ["Owner's drawings"] }),
  entry('4000', 'Sales', 'revenue', { taxCode: 'S', synonyms: ['Revenue', 'Turnover', 'Fees'] }),
  entry('4900', 'Other income', 'revenue', { taxCode: 'S', synonyms: ['Sundry income'] }),
  entry('4906', 'Interest received', 'revenue', { taxCode: 'E', synonyms: ['Bank interest received'] }),
  entry('5000', 'Cost of sales', 'expense', { taxCode: 'S', costOfSales: true, synonyms: ['Purchases', 'Materials', 'Stock'] }),
  entry('6000', 'Overheads', 'expense'),
  overhead('6100', 'Wages and salaries', 'NV', ['Salaries', 'Wages', 'Payroll']),
  overhead('6110', "Employer's NI", 'NV', ["Employer's National Insurance"]),
  overhead('6120', 'Pensions', 'NV', ['Pension', 'Workplace pension']),
  overhead('6200', 'Rent', 'E', ['Office rent']),
  overhead('6210', 'Rates', 'NV', ['Business rates']),
  overhead('6220', 'Light and heat', 'S', ['Electricity', 'Gas', 'Energy', 'Utilities']),
  overhead('6230', 'Repairs and maintenance', 'S', ['Repairs', 'Maintenance']),
  overhead('6240', 'Insurance', 'E'),
  overhead('6300', 'Telephone and internet', 'S', ['Telephone', 'Broadband', 'Mobile']),
  overhead('6310', 'Printing, postage and stationery', 'S', ['Stationery', 'Printing']),
  overhead('6320', 'Software and subscriptions', 'S', ['Software', 'Subscriptions', 'SaaS']),
  overhead('6400', 'Motor expenses', 'S', ['Fuel', 'Petrol', 'Diesel', 'Parking']),
  overhead('6410', 'Travel', 'Z', ['Rail fares', 'Train', 'Flights']),
  overhead('6420', 'Subsistence', 'S', ['Meals', 'Hotels']),
  overhead('6500', 'Advertising and marketing', 'S', ['Advertising', 'Marketing']),
  overhead('6600', 'Accountancy', 'S', ['Accountancy fees', 'Bookkeeping']),
  overhead('6610', 'Legal and professional fees', 'S', ['Legal fees', 'Solicitor']),
  overhead('6700', 'Bank charges', 'E', ['Bank fees']),
  overhead('6710', 'Interest paid', 'E', ['Loan interest']),
  overhead('6800', 'Depreciation', 'NV'),
  overhead('6900', 'Sundry expenses', 'S', ['Sundries', 'General expenses']),
];

export const ukSmallBusinessTemplate: ChartTemplate = {
  id: 'uk-small-business',
  name: 'the UK small-business chart',
  fits: (org) => org.taxSet === 'uk-vat' || org.country === 'GB',
  chart,
  counterparties: [],
};
