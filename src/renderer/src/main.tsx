import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { catchBankReturn } from './screens/connectors/bankReturn';
import { catchHmrcReturn } from './screens/tax/hmrc/browser';
import './styles.css';

// HMRC's sign-in and a bank's send the browser back to the server's address: caught before the desk reads its route.
catchHmrcReturn();
catchBankReturn();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
