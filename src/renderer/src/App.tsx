// The desk: organization switcher, navigation and the screens. Hash routes
// (#/approvals) work from file:// in the app and from the browser server alike.
import { useEffect, useState } from 'react';
import { SCREENS } from '../../shared/screens';
import { Failure, Loading } from './components';
import { desk, DeskError, isBrowserMode, signOut } from './desk';
import { setDecimalMark } from './format';
import { useLoad } from './hooks';
import { OrgContext } from './org';
import { Accounts } from './screens/Accounts';
import { Approvals } from './screens/Approvals';
import { Backups } from './screens/Backups';
import { Chart } from './screens/Chart';
import { Dashboard } from './screens/Dashboard';
import { Import } from './screens/Import';
import { Log } from './screens/Log';
import { Organizations } from './screens/Organizations';
import { Receipts } from './screens/Receipts';
import { Reconcile } from './screens/Reconcile';
import { Reports } from './screens/Reports';
import { GeneralLedger } from './screens/GeneralLedger';
import { Tax } from './screens/Tax';
import { Contacts } from './screens/Contacts';
import { Documents } from './screens/Documents';
import { Aging } from './screens/Aging';
import { Rates } from './screens/Rates';
import { Rules } from './screens/Rules';
import { Tokens } from './screens/Tokens';
import { Transactions } from './screens/Transactions';
import { Journals } from './screens/Journals';
import { OpeningBalances } from './screens/OpeningBalances';

type Screen = (typeof SCREENS)[number][0];

/** #/transactions?account=<id> -> the screen and its parameters (null: none named). */
function routeOf(hash: string): { screen: Screen | null; params: URLSearchParams } {
  const [path, query = ''] = hash.replace(/^#\/?/, '').split('?');
  return { screen: SCREENS.find(([id]) => id === path)?.[0] ?? null, params: new URLSearchParams(query) };
}
const ORG_KEY = 'ledgerdesk.org';

function SignIn() {
  return (
    <main className="signin">
      <h1>Ledgerdesk</h1>
      <p>
        This browser is not signed in. Open the one-time sign-in link that <code>npm start</code> (or <code>ledgerdesk serve</code>) printed in its terminal, or get a new one with{' '}
        <code>npm run -s ledgerdesk -- sign-in</code>.
      </p>
    </main>
  );
}

export function App() {
  const [route, setRoute] = useState(routeOf(location.hash));
  const { params } = route;
  const info = useLoad(() => desk.appInfo({}), []);
  // Polled: an organization made or renamed by a command appears without a reload.
  const orgs = useLoad(() => desk.listOrganizations({}), [], 5000);
  const [chosen, setOrgId] = useState<string | null>(localStorage.getItem(ORG_KEY));
  // The chosen organization once it is in the list (a new one appears after the reload), else the first.
  const orgId = orgs.data?.find((o) => o.id === chosen)?.id ?? orgs.data?.[0]?.id ?? null;
  const pending = useLoad(() => (orgId ? desk.listProposals({ orgId }) : Promise.resolve([])), [orgId], 5000);

  useEffect(() => {
    const onHash = () => setRoute(routeOf(location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    if (orgId) localStorage.setItem(ORG_KEY, orgId);
  }, [orgId]);

  const go = (id: string) => {
    location.hash = `#/${id}`;
  };
  const error = info.error ?? orgs.error;
  if (error instanceof DeskError && error.code === 'unauthorized') return <SignIn />;
  if (error && !orgs.data)
    return (
      <main className="page">
        <Failure
          error={error}
          retry={() => {
            info.reload();
            orgs.reload();
          }}
        />
      </main>
    );
  if (!orgs.data || !info.data || !orgId)
    return (
      <main className="page">
        <Loading what="your books" />
      </main>
    );
  const org = orgs.data.find((o) => o.id === orgId)!;
  setDecimalMark(org.decimalMark);
  // No screen named: the review queue, or for books not started yet the Dashboard, which says what to do first.
  const screen: Screen = route.screen ?? (org.hasBooks ? 'approvals' : 'dashboard');

  return (
    <div className="layout">
      <header className="top">
        <h1>Ledgerdesk</h1>
        <select className="org" aria-label="Organization" value={org.id} onChange={(e) => setOrgId(e.target.value)}>
          {orgs.data.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
        <span className="agent-url" title="Agents connect here with a token">
          Agent API <code>{info.data.agentUrl}</code>
        </span>
        {isBrowserMode() && (
          <button className="link" onClick={() => signOut().then(() => location.reload())}>
            Sign out
          </button>
        )}
      </header>
      <nav className="side" aria-label="Screens">
        {SCREENS.map(([id, label]) => (
          <a key={id} href={`#/${id}`} aria-current={screen === id ? 'page' : undefined}>
            {label}
            {id === 'approvals' && (pending.data?.length ?? 0) > 0 && (
              <span className="count" aria-label={`${pending.data!.length} pending`}>
                {pending.data!.length}
              </span>
            )}
          </a>
        ))}
      </nav>
      <OrgContext.Provider value={org}>
        <main className="page" key={org.id}>
          {screen === 'dashboard' && <Dashboard orgId={org.id} go={go} />}
          {screen === 'approvals' && <Approvals orgId={org.id} onReviewed={pending.reload} />}
          {screen === 'transactions' && <Transactions key={params.toString()} orgId={org.id} initial={Object.fromEntries(params)} />}
          {screen === 'accounts' && <Accounts orgId={org.id} />}
          {screen === 'opening' && <OpeningBalances orgId={org.id} />}
          {screen === 'journals' && <Journals key={params.toString()} orgId={org.id} initial={Object.fromEntries(params)} />}
          {screen === 'import' && <Import key={params.toString()} orgId={org.id} accountId={params.get('account') ?? undefined} />}
          {screen === 'reconcile' && <Reconcile key={params.toString()} orgId={org.id} accountId={params.get('account') ?? undefined} report={params.get('report') ?? undefined} />}
          {screen === 'chart' && <Chart orgId={org.id} />}
          {screen === 'rules' && <Rules orgId={org.id} />}
          {screen === 'reports' && <Reports orgId={org.id} />}
          {screen === 'tax' && <Tax orgId={org.id} />}
          {screen === 'contacts' && <Contacts orgId={org.id} />}
          {screen === 'invoices' && <Documents key="invoices" orgId={org.id} kind="invoice" currency={org.currency} />}
          {screen === 'bills' && <Documents key="bills" orgId={org.id} kind="bill" currency={org.currency} />}
          {screen === 'aging' && <Aging orgId={org.id} />}
          {screen === 'rates' && <Rates orgId={org.id} />}
          {screen === 'ledger' && <GeneralLedger key={params.toString()} orgId={org.id} initial={Object.fromEntries(params)} />}
          {screen === 'backups' && <Backups />}
          {screen === 'receipts' && <Receipts orgId={org.id} />}
          {screen === 'log' && <Log orgId={org.id} />}
          {screen === 'tokens' && <Tokens orgId={org.id} mcpUrl={info.data.mcpUrl} />}
          {screen === 'organizations' && (
            <Organizations
              orgs={orgs.data}
              current={org.id}
              onSwitch={setOrgId}
              onCreated={(created) => {
                orgs.reload();
                setOrgId(created.id);
              }}
              onChanged={orgs.reload}
            />
          )}
        </main>
      </OrgContext.Provider>
    </div>
  );
}
