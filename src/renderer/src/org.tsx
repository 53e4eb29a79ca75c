// The organization the screens work in: its currency and how it writes
// amounts. App provides it; forms read typed amounts with it.
import { createContext, useContext } from 'react';
import type { DecimalMark } from '../../shared/amounts';

export interface CurrentOrg {
  id: string;
  name: string;
  currency: string;
  decimalMark: DecimalMark;
  /** No money in its books yet: its currency may still change (Organizations). */
  canChangeCurrency?: boolean;
  /** The profit and loss's basis by default, the Dashboard's too. */
  reportBasis?: 'cash' | 'accrual';
}

export const OrgContext = createContext<CurrentOrg>({ id: '', name: '', currency: 'USD', decimalMark: '.' });
export const useOrg = (): CurrentOrg => useContext(OrgContext);
