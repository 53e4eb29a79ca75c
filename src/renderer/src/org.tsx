// The organization the screens work in: its currency and how it writes
// amounts. App provides it; forms read typed amounts with it.
import { createContext, useContext } from 'react';
import type { DecimalMark } from '../../shared/amounts';

export interface CurrentOrg {
  id: string;
  name: string;
  currency: string;
  decimalMark: DecimalMark;
}

export const OrgContext = createContext<CurrentOrg>({ id: '', name: '', currency: 'USD', decimalMark: '.' });
export const useOrg = (): CurrentOrg => useContext(OrgContext);
