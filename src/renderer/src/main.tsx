import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { catchHmrcReturn } from './screens/tax/hmrc/browser';
import './styles.css';

// HMRC's sign-in sends the browser back to the server's address: caught before the desk reads its route.
catchHmrcReturn();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
