import { describe, expect, it } from 'vitest';
import { LINK_WORD_MAX, safeHref, splitLinks } from '../../../src/ui/common/links';

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

  it('finds bare domains and e-mail addresses, and never opens an address with a user name in it', () => {
    expect(splitLinks('ses på example.se eller skriv till anna@example.se')).toEqual([
      { kind: 'text', text: 'ses på ' },
      { kind: 'link', text: 'example.se', href: 'https://example.se/' },
      { kind: 'text', text: ' eller skriv till ' },
      { kind: 'link', text: 'anna@example.se', href: 'mailto:anna@example.se' },
    ]);
    expect(splitLinks('https://google.com@evil.se/login')).toEqual([{ kind: 'text', text: 'https://google.com@evil.se/login' }]);
    expect(safeHref('https://user:pass@example.se/')).toBeNull();
  });

  it('keeps a malformed escape as text or as a link, never throwing (issue 20)', () => {
    for (const text of ['mailto:a%E0@b.se', 'https://x.se/%E0%A4%A', '%E0 www.x.se/%zz']) {
      expect(splitLinks(text).map((p) => p.text).join('')).toBe(text);
    }
  });

  it('leaves a word longer than LINK_WORD_MAX as text, and still links the words around it', () => {
    const long = 'http://x.se/'.repeat(Math.ceil((LINK_WORD_MAX + 1) / 12));
    expect(long.length).toBeGreaterThan(LINK_WORD_MAX);
    expect(splitLinks(`${long} https://example.se`)).toEqual([
      { kind: 'text', text: `${long} ` },
      { kind: 'link', text: 'https://example.se', href: 'https://example.se/' },
    ]);
  });
});

