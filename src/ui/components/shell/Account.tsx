// Who is signed in (name, else email, and roles) and the way out. Signing out
// first forgets the painted floor, so the next page load does not show this
// user's floor to whoever comes next.

import type { SessionView } from '../../../shared/api.js';
import { useEngine } from '../../hooks/engineContext.js';
import { clearPainted } from '../../lib/paintedFloor.js';

export function Account({ session }: { session: SessionView }) {
  const { api } = useEngine();
  const signedInAs = session.user ? `${session.user.first_name} ${session.user.last_name}`.trim() || session.user.email : '';
  return (
    <span className="user">
      <span>{signedInAs}</span>
      {session.roles.length ? <span className="roles"> ({session.roles.join(', ')})</span> : null}
      <button
        type="button"
        onClick={() => {
          // before anything else: the next page load must not paint this user's floor
          clearPainted({ signedOut: true });
          void api.signOut();
        }}
      >
        Sign out
      </button>
    </span>
  );
}
