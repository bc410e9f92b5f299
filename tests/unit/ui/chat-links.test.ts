import { describe, expect, it } from 'vitest';
import { safeHref, splitLinks } from '../../../src/ui/common/links';

describe('message links', () => {
  it('links http, https and mailto, and keeps the text around them', () => {
    expect(splitLinks('see https://example.com/a?b=1 and http://x.se, or mailto:bob@example.se!')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
      { kind: 'text', text: ' and ' },
      { kind: 'link', text: 'http://x.se', href: 'http://x.se/' },
      { kind: 'text', text: ', or ' },
      { kind: 'link', text: 'mailto:bob@example.se', href: 'mailto:bob@example.se' },
      { kind: 'text', text: '!' },
    ]);
  });

  it('leaves every other scheme as text', () => {
    for (const text of [
      'javascript:alert(1)',
      'JavaScript:alert(document.cookie)',
      'data:text/html,<script>alert(1)</script>',
      'ftp://files.example.com/a',
      'file:///etc/passwd',
      'vbscript:msgbox',
      'tel:+46701234567',
    ]) {
      expect(splitLinks(text), text).toEqual([{ kind: 'text', text }]);
    }
    expect(safeHref('mailto:not-an-address')).toBeNull();
    expect(safeHref('https://')).toBeNull();
  });

  it('links www. addresses over https and keeps a closing bracket that belongs to the URL', () => {
    expect(splitLinks('www.example.com.')).toEqual([
      { kind: 'link', text: 'www.example.com', href: 'https://www.example.com/' },
      { kind: 'text', text: '.' },
    ]);
    expect(splitLinks('(https://en.wikipedia.org/wiki/Moby_(novel))')).toEqual([
      { kind: 'text', text: '(' },
      { kind: 'link', text: 'https://en.wikipedia.org/wiki/Moby_(novel)', href: 'https://en.wikipedia.org/wiki/Moby_(novel)' },
      { kind: 'text', text: ')' },
    ]);
  });

  it('gives plain text back as one part, and nothing for nothing', () => {
    expect(splitLinks('Hej! Ses vi på fredag? 10:30')).toEqual([{ kind: 'text', text: 'Hej! Ses vi på fredag? 10:30' }]);
    expect(splitLinks('')).toEqual([]);
  });
});
