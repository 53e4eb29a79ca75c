// The desk: organization switcher, navigation and the screens. Hash routes
// (#/approvals) work from file:// in the app and from the browser server alike.
import { useEffect, useMemo, useState } from 'react';
import { AccountMenu, SecondFactorNeeded } from './Account';
import { CanProvider, canWith } from './can';
import { Empty, Failure, Loading } from './components';
import { desk, isBrowserMode, signOut, unauthorizedReason } from './desk';
import { setDecimalMark } from './format';
import { useLoad, type Loaded } from './hooks';
import type { DeskResult } from '../../main/desk/operations';
import { OrgContext } from './org';
import { Accounts } from './screens/accounts/Accounts';
import { Approvals } from './screens/proposals/Approvals';
import { Backups } from './screens/access/Backups';
import { Connections } from './screens/connectors/Connections';
import { Chart } from './screens/accounts/Chart';
import { Dashboard } from './screens/reports/Dashboard';
import { Import } from './screens/accounts/Import';
import { Log } from './screens/access/Log';
import { Organizations } from './screens/access/Organizations';
import { Receipts } from './screens/transactions/Receipts';
import { Reconcile } from './screens/accounts/Reconcile';
import { Reports } from './screens/reports/Reports';
import { GeneralLedger } from './screens/reports/GeneralLedger';
import { Tax } from './screens/tax/Tax';
import { Contacts } from './screens/documents/Contacts';
import { Documents } from './screens/documents/Documents';
import { Quotes } from './screens/documents/Quotes';
import { RepeatingInvoices } from './screens/documents/RepeatingInvoices';
import { Aging } from './screens/documents/Aging';
import { MailSettings } from './screens/mail/MailSettings';
import { Reminders } from './screens/mail/Reminders';
import { Rates } from './screens/rates/Rates';
import { Rules } from './screens/proposals/Rules';
import { Tokens } from './screens/access/Tokens';
import { Transactions } from './screens/transactions/Transactions';
import { Journals } from './screens/journals/Journals';
import { OpeningBalances } from './screens/journals/OpeningBalances';
import { People } from './screens/access/People';
import { Invitation, SignIn } from './SignIn';
import { mayOpen, NAV, routedOrg, routeOf, type Screen } from './nav';
import { Practice } from './screens/practice/Practice';

const ORG_KEY = 'ledgerdesk.org';

export function App() {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onHash = () => setHash(location.hash);
    window.addEventListener('hashchange', onHash);
    // A hash changed between the first render and this listener (a link followed while the page loads) is caught up.
    onHash();
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const route = useMemo(() => routeOf(hash), [hash]);
  // An invitation's page opens without a session: it makes one.
  if (route.invitation) return <Invitation code={route.invitation} />;
  return <Desk route={route} />;
}

function Desk({ route }: { route: ReturnType<typeof routeOf> }) {
  const { params } = route;
  const info = useLoad(() => desk.appInfo({}), []);
  // Polled: an organization made or renamed by a command (or a role given) appears without a reload.
  const orgs = useLoad(() => desk.listOrganizations({}), [], 5000);
  const [chosen, setOrgId] = useState<string | null>(localStorage.getItem(ORG_KEY));
  // The organization a link names (a Practice figure's), else the chosen one once it is in the list (a new one
  // appears after the reload), else the first.
  const routed = routedOrg(params, orgs.data);
  const current = routed ?? orgs.data?.find((o) => o.id === chosen) ?? orgs.data?.[0];
  const orgId = current?.id ?? null;
  const person = info.data?.person ?? null;
  const can = canWith(info.data?.roles, current?.role ?? 'owner', info.data !== undefined && person === null);
  // Books that ask for a second factor open nothing else to a person without one.
  const secondFactorFirst = person !== null && !person.totp && Boolean(current?.requireTotp);
  const counting = orgId !== null && can('listProposals') && !secondFactorFirst;
  const pending = useLoad(() => (counting ? desk.listProposals({ orgId }) : Promise.resolve([])), [orgId, counting], 5000);

  useEffect(() => {
    if (orgId) localStorage.setItem(ORG_KEY, orgId);
    // One a link opened stays chosen after the link's address is left.
    if (orgId) setOrgId(orgId);
  }, [orgId]);

  const error = info.error ?? orgs.error;
  const unauthorized = unauthorizedReason(error);
  if (unauthorized) return <SignIn totpDue={unauthorized === 'totp_due'} />;
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
  if (orgs.data?.length === 0)
    return (
      <main className="signin">
        <Empty title="No books of yours here yet.">An owner of the books you keep gives you a role in them: they appear here once they have.</Empty>
        <button onClick={() => void signOut().then(() => location.reload())}>Sign out</button>
      </main>
    );
  if (!orgs.data || !info.data || !current)
    return (
      <main className="page">
        <Loading what="your books" />
      </main>
    );
  const org = current;
  setDecimalMark(org.decimalMark);
  // No screen named: the Practice screen for a person with several organizations (issue 55); else the review queue, or
  // for books not started yet (or a role without one) the Dashboard.
  const screen: Screen = route.screen ?? (orgs.data.length > 1 && can('practice') ? 'practice' : org.hasBooks && can('listProposals') ? 'approvals' : 'dashboard');
  // Switching away from the organization a link named leaves the link's address too.
  const switchTo = (id: string) => {
    setOrgId(id);
    if (routed) location.hash = `#/${screen}`;
  };

  return (
    <div className="layout">
      <header className="top">
        <h1>Ledgerdesk</h1>
        <select className="org" aria-label="Organization" value={org.id} onChange={(e) => switchTo(e.target.value)}>
          {orgs.data.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
        <span className="agent-url" title="Agents connect here with a token">
          Agent API <code>{info.data.agentUrl}</code>
        </span>
        {person ? (
          <AccountMenu person={person} role={org.role} orgName={org.name} onChanged={info.reload} />
        ) : (
          isBrowserMode() && (
            <button className="link" onClick={() => signOut().then(() => location.reload())}>
              Sign out
            </button>
          )
        )}
      </header>
      <nav className="side" aria-label="Screens">
        {NAV.filter(([id]) => mayOpen(can, id)).map(([id, label]) => (
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
        <CanProvider value={can}>
          <main className="page" key={org.id}>
            {secondFactorFirst ? (
              <SecondFactorNeeded orgName={org.name} onDone={info.reload} />
            ) : route.unknown !== null ? (
              <Empty title="No such screen.">
                There is no screen at <code>#/{route.unknown}</code> (a mistyped or outdated link): <a href="#/dashboard">the Dashboard</a>, or pick one on the left.
              </Empty>
            ) : mayOpen(can, screen) ? (
              <Screens screen={screen} params={params} org={org} orgs={orgs} info={info.data} setOrgId={setOrgId} onReviewed={pending.reload} />
            ) : (
              <Empty title="Not open to your role.">
                As {org.role} of {org.name} you do not see this screen: <a href="#/dashboard">back to the Dashboard</a>.
              </Empty>
            )}
          </main>
        </CanProvider>
      </OrgContext.Provider>
    </div>
  );
}

type Org = DeskResult<'listOrganizations'>[number];

/** The screen the route names, in the current organization. */
function Screens(props: {
  screen: Screen;
  params: URLSearchParams;
  org: Org;
  orgs: Loaded<DeskResult<'listOrganizations'>>;
  info: DeskResult<'appInfo'>;
  setOrgId: (id: string) => void;
  onReviewed: () => void;
}) {
  const { screen, params, org, orgs, info, setOrgId } = props;
  const go = (id: string) => {
    location.hash = `#/${id}`;
  };
  return (
    <>
      {screen === 'practice' && <Practice signedIn={info.person !== null} />}
      {screen === 'dashboard' && <Dashboard orgId={org.id} go={go} />}
      {screen === 'approvals' && <Approvals orgId={org.id} onReviewed={props.onReviewed} />}
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
      {screen === 'quotes' && <Quotes orgId={org.id} currency={org.currency} />}
      {screen === 'repeating' && <RepeatingInvoices orgId={org.id} currency={org.currency} />}
      {screen === 'aging' && <Aging orgId={org.id} />}
      {screen === 'reminders' && <Reminders orgId={org.id} />}
      {screen === 'mail' && <MailSettings orgId={org.id} />}
      {screen === 'rates' && <Rates orgId={org.id} />}
      {screen === 'ledger' && <GeneralLedger key={params.toString()} orgId={org.id} initial={Object.fromEntries(params)} />}
      {screen === 'backups' && <Backups />}
      {screen === 'connections' && <Connections orgId={org.id} />}
      {screen === 'receipts' && <Receipts orgId={org.id} />}
      {screen === 'log' && <Log orgId={org.id} />}
      {screen === 'tokens' && <Tokens orgId={org.id} mcpUrl={info.mcpUrl} />}
      {screen === 'organizations' && (
        <Organizations
          orgs={orgs.data ?? []}
          current={org.id}
          onSwitch={setOrgId}
          onCreated={(created) => {
            orgs.reload();
            setOrgId(created.id);
          }}
          onChanged={orgs.reload}
        />
      )}
      {screen === 'people' && <People orgId={org.id} me={info.person?.email} />}
    </>
  );
}
