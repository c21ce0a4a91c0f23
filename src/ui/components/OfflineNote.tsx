// Why an account form's button is off while the browser is offline (sign in,
// sign up, reset, finish with a mailed code): the request could only fail
// after the person filled the form in. Before sign-in there is no session to
// ask, so the browser's own online flag decides (hooks/useServerReach.ts
// useBrowserOnline), and the button comes back on by itself with the network.
// A status, so a screen reader hears it when the network goes.

/** What an account form says while the browser is offline; `action` names what needs the network. */
export function offlineText(action: string): string {
  return `You are offline: ${action} needs a network connection. This comes back on by itself once you are online.`;
}

export function OfflineNote({ id, action }: { id: string; action: string }) {
  return (
    <p id={id} className="needs-server" role="status">
      {offlineText(action)}
    </p>
  );
}
