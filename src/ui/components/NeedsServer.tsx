// The reason a write action is disabled, said once next to it while the
// server cannot be reached (hooks/useServerReach.ts); the disabled controls
// point to it with aria-describedby.

import { NEEDS_SERVER } from '../hooks/useServerReach.js';

export function NeedsServer({ id }: { id: string }) {
  return (
    <p id={id} className="needs-server" role="note">
      {NEEDS_SERVER}
    </p>
  );
}
