// "Approve and remember": the rule drafted from a categorization (the
// description's shape, its account and direction, the category), for the
// person to adjust before approving.
import type { Account } from '../../../../main/ledger/accounts/accounts';
import { Failure, Loading } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';
import { RuleForm, toFields, type RuleFields } from './RuleForm';

export function Remember(props: { orgId: string; proposalId: string; accounts: Account[]; busy: boolean; onSubmit: (rule: RuleFields) => void; onCancel: () => void }) {
  const draft = useLoad(() => desk.ruleDraft({ orgId: props.orgId, proposalId: props.proposalId }), [props.orgId, props.proposalId]);
  const chart = useLoad(() => desk.listChart({ orgId: props.orgId }), [props.orgId]);
  const taxCodes = useLoad(() => desk.listTaxCodes({ orgId: props.orgId }), [props.orgId]);
  if (draft.error) return <Failure error={draft.error} retry={draft.reload} />;
  if (!draft.data || !chart.data) return <Loading what="the rule" />;
  return (
    <div className="remember" aria-label="Remember as a rule">
      <p className="hint">Approve, and use this category for rows like it from now on (and for the uncategorized ones now):</p>
      <RuleForm
        initial={toFields(draft.data)}
        description={draft.data.description}
        aliases={draft.data.aliases}
        accounts={props.accounts}
        categories={chart.data}
        taxCodes={taxCodes.data}
        submit="Approve and remember"
        busy={props.busy}
        onSubmit={props.onSubmit}
        onCancel={props.onCancel}
      />
    </div>
  );
}
