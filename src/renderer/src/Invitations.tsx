// Invitations to join an organization (issue 51): a person who already signs in
// is invited, not added, by an owner who types their address; they accept or
// decline here (or through the link, with their own password).
import { useEffect, useState } from 'react';
import type { DeskResult } from '../../main/desk/operations';
import { Notice, messageOf } from './components';
import { desk } from './desk';

type Invitation = DeskResult<'whoAmI'>['invitations'][number];

export function Invitations({ onJoined }: { onJoined: () => void }) {
  const [invitations, setInvitations] = useState<Invitation[]>([]);
  const [error, setError] = useState<string>();
  const load = () =>
    desk.whoAmI({}).then(
      (me) => setInvitations(me.invitations),
      (err: unknown) => setError(messageOf(err)),
    );
  useEffect(() => void load(), []);
  const answer = (how: 'acceptInvitation' | 'declineInvitation', id: string) => () =>
    void desk[how]({ invitation: id }).then(
      () => (how === 'acceptInvitation' && onJoined(), load()),
      (err: unknown) => setError(messageOf(err)),
    );
  if (!invitations.length && !error) return null;
  return (
    <div role="region" aria-label="Invitations">
      <h3>Invitations</h3>
      {invitations.map((i) => (
        <p key={i.id} className="small">
          {i.name} invites you as {i.role}. <button onClick={answer('acceptInvitation', i.id)}>Accept</button> <button onClick={answer('declineInvitation', i.id)}>Decline</button>
        </p>
      ))}
      {error && <Notice kind="error">{error}</Notice>}
    </div>
  );
}
