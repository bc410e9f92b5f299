import { describe, expect, it } from 'vitest';
import { scrubBreadcrumb, scrubEvent, scrubText, scrubUrl } from '../../../src/reporting/scrub';

describe('what an error report may carry (issue 9)', () => {
  it('keeps no token, PIN or phone number in a text or a URL', () => {
    expect(scrubUrl('ws://h:1/ws?token=s3cr3t&last_message_id=12&protocol=7')).toBe(
      'ws://h:1/ws?token=[Filtered]&last_message_id=12&protocol=7',
    );
    expect(scrubUrl('http://h/v1/auth/pin/confirm?phone_nr=%2B46701234561&pin=4821')).toBe(
      'http://h/v1/auth/pin/confirm?phone_nr=[Filtered]&pin=[Filtered]',
    );
    expect(scrubText('Invalid number +46701234561 and 070-123 45 61')).toBe('Invalid number [Filtered] and [Filtered]');
    expect(scrubText('the PIN: 4821 was wrong')).toBe('the PIN: [Filtered] was wrong');
    // Short numbers (ids, counts, statuses) stay: the report must still say what went wrong.
    expect(scrubText('Failed to load conversation 42 (status 500)')).toBe('Failed to load conversation 42 (status 500)');
  });

  it('drops console and UI breadcrumbs, and keeps navigation and network steps with scrubbed URLs only', () => {
    expect(scrubBreadcrumb({ category: 'console', message: 'sent “Hej Erik!”' })).toBeNull();
    expect(scrubBreadcrumb({ category: 'ui.click', message: 'button[aria-label="Reply to Erik"]' })).toBeNull();
    expect(
      scrubBreadcrumb({
        category: 'fetch',
        message: 'POST body: {"message":"secret"}',
        data: { url: 'http://h/ws?token=t', method: 'POST', status_code: 200, request_body: '{"message":"secret"}' },
      }),
    ).toEqual({ category: 'fetch', data: { url: 'http://h/ws?token=[Filtered]', method: 'POST', status_code: 200 } });
  });

  it('sends no request headers, cookies, bodies, extra data or personal user fields', () => {
    const event = scrubEvent({
      message: 'call to +46701234561 failed',
      exception: { values: [{ type: 'Error', value: 'token=abc in ws URL' }] },
      request: { url: 'http://h/inbox?token=abc', headers: { 'Auth-Token': 'abc' }, cookies: 'x', data: '{"pin":"1234"}' },
      user: { id: '7', phone: '+46701234561', ip_address: '127.0.0.1' },
      extra: { text: 'Hej Erik!' },
      breadcrumbs: [{ category: 'console', message: 'Hej' }, { category: 'navigation', data: { from: '/a?token=x', to: '/b' } }],
    });
    expect(event).toEqual({
      message: 'call to [Filtered] failed',
      exception: { values: [{ type: 'Error', value: 'token=[Filtered] in ws URL' }] },
      request: { url: 'http://h/inbox?token=[Filtered]' },
      user: { id: '7' },
      breadcrumbs: [{ category: 'navigation', data: { from: '/a?token=[Filtered]', to: '/b' } }],
    });
  });
});
