import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// The review screens (Approvals, Log, Receipts, Tokens, Transactions, Dashboard)
// come with the desk operations; until then the window says where the agent API is.
function App() {
  return (
    <main style={{ font: '15px system-ui, sans-serif', padding: 32 }}>
      <h1>Ledgerdesk</h1>
      <p>The agent API runs on 127.0.0.1; connect agents with a token from <code>ledgerdesk token create</code>.</p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
