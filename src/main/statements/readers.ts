// The statement formats Ledgerdesk reads, tried in this order (CSV last: it
// reads what none of the others recognises).
import { camt053Reader } from './camt053';
import { csvReader } from './csv';
import { mt940Reader } from './mt940';
import { ofxReader } from './ofx';
import { qifReader } from './qif';
import type { StatementReader } from './reader';

export const READERS: readonly StatementReader[] = [ofxReader, camt053Reader, qifReader, mt940Reader, csvReader];
