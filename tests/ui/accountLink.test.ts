import { describe, expect, it } from 'vitest';
import { accountLinkFromHash } from '../../src/ui/lib/accountLink.js';

describe('accountLinkFromHash', () => {
  it('reads the signup and password links the server mails', () => {
    expect(accountLinkFromHash('#/signup?code=Ab_9-x')).toEqual({ kind: 'signup', code: 'Ab_9-x' });
    expect(accountLinkFromHash('#/set-password?organization=1&user=7&code=c0de')).toEqual({
      kind: 'setPassword', link: { organizationId: '1', userId: '7', code: 'c0de' },
    });
  });

  it('keeps a link that lost a part as such, so the screen can say so', () => {
    expect(accountLinkFromHash('#/set-password?organization=1&code=c')).toEqual({ kind: 'setPassword', link: null });
    expect(accountLinkFromHash('#/signup')).toEqual({ kind: 'signup', code: '' });
  });

  it('takes nothing that is not an id or a code of ours', () => {
    expect(accountLinkFromHash('#/signup?code=<script>')).toEqual({ kind: 'signup', code: '' });
    expect(accountLinkFromHash('#/set-password?organization=1&user=../admin&code=c')).toEqual({ kind: 'setPassword', link: null });
    expect(accountLinkFromHash('#/signup?code[a]=1')).toEqual({ kind: 'signup', code: '' });
  });

  it('ignores other fragments', () => {
    expect(accountLinkFromHash('')).toBeNull();
    expect(accountLinkFromHash('#id_token=a.b.c')).toBeNull();
    expect(accountLinkFromHash('#/signups?code=x')).toBeNull();
  });
});
