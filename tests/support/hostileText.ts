import fc from 'fast-check';

/**
 * Text other people can send, as the renderers meet it (issue 20, design.md §4): every test that checks
 * "everything renders" takes its strings from here. No Node or DOM imports: unit, browser and e2e tests
 * share it.
 */

const BIDI = ['\u202e', '\u202d', '\u2066', '\u2067', '\u2068', '\u2069', '\u200f', '\u200e', '\u061c'];
const ZERO_WIDTH = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad'];
const CONTROL = ['\u0000', '\u0001', '\u0007', '\u0008', '\u001b', '\u007f', '\u0085', '\r', '\t', '\u2028', '\u2029'];
const LONE_SURROGATES = ['\ud800', '\udfff', '\udbff', 'a\ud83d', '\ude00b'];

/** A fixed corpus of the kinds the issue names, each labelled, for e2e and browser tests. */
export const HOSTILE_CORPUS: readonly { kind: string; text: string }[] = [
  { kind: 'malformed mailto escape', text: 'mailto:a%E0@b.se' },
  { kind: 'malformed URL escapes', text: 'https://example.se/%E0%A4%A and http://x.se/%ZZ%' },
  { kind: 'lone escapes', text: '%E0 %C3% %%% %u0041 %' },
  { kind: 'lone surrogates', text: `half ${LONE_SURROGATES.join(' ')} pairs` },
  { kind: 'bidi overrides', text: `${BIDI.join('x')} ‮evil.exe‬ gpj.exe` },
  { kind: 'zero-width', text: `zero${ZERO_WIDTH.join('')}width w\u200bw\u200bw.example.se` },
  { kind: 'control characters', text: `ctl${CONTROL.join('|')}end` },
  { kind: 'long word', text: 'x'.repeat(20_000) },
  { kind: 'long link', text: `https://example.se/${'a'.repeat(5_000)}` },
  { kind: 'many emoji', text: '😀👨‍👩‍👧‍👦🏳️‍🌈🇸🇪'.repeat(800) },
  { kind: 'combining marks', text: `Z${'\u0336\u0337\u0338\u0300\u0301'.repeat(200)}algo` },
  { kind: 'markup', text: '<script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>' },
  { kind: 'templates', text: '{{name}} {{- html}} $t(common.appName) ${process.env} {0} %s %d <%= x %> {{constructor.constructor("alert(1)")()}}' },
  { kind: 'schemes', text: 'javascript:alert(1) data:text/html,<b>x</b> vbscript:x file:///etc/passwd //evil.example ftp://x.se' },
  { kind: 'bare domains and mail', text: 'example.se, www.example.com/a?b=(c) and anna@example.se.' },
  { kind: 'brackets and punctuation', text: '(((https://x.se/a_(b))))]]}}!!??..,,' },
  { kind: 'unicode hosts', text: 'https://bücher.example/ and https://xn--bcher-kva.example/ http://[::1]:8080/ http://999.999.999.999/' },
  { kind: 'right-to-left', text: 'مرحبا https://example.se שלום' },
  { kind: 'prototype keys', text: '__proto__ constructor toString hasOwnProperty valueOf' },
  { kind: 'whitespace only', text: ' \n\t \u3000 ' },
];

const piece = (values: readonly string[]) => fc.constantFrom(...values);

/** Text shaped like a link, with broken escapes and odd hosts: what the link finder has to take. */
const linkShaped = fc
  .tuple(
    fc.constantFrom('http://', 'https://', 'mailto:', 'www.', '', '//', 'javascript:', 'HTTPS://', 'ftp://', 'data:'),
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.constantFrom('example.se', 'a@b.se', 'x.com', '[::1]', 'b\u00fccher.de', '%E0@b.se', 'xn--', '.', '@'),
    fc.array(fc.constantFrom('%', '%E0', '%zz', '%C3%A5', '/', '?', '#', '(', ')', '.', ',', '@', ':', '\ud800'), { maxLength: 8 }),
  )
  .map(([scheme, middle, host, tail]) => `${scheme}${middle}${host}${tail.join('')}`);

/** Arbitrary text other people could send: full Unicode, lone surrogates, escapes, links, markup, long runs. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ unit: 'binary', maxLength: 80 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 2 },
  { arbitrary: linkShaped, weight: 3 },
  {
    arbitrary: fc
      .array(
        fc.oneof(
          linkShaped,
          piece(BIDI),
          piece(ZERO_WIDTH),
          piece(CONTROL),
          piece(LONE_SURROGATES),
          piece(['<b>', '</script>', '{{x}}', '$t(a)', '&amp;', '&#0;', ' ', '\n', '😀', '👨‍👩‍👧']),
          fc.string({ unit: 'binary', maxLength: 6 }),
        ),
        { maxLength: 12 },
      )
      .map((parts) => parts.join('')),
    weight: 4,
  },
  { arbitrary: piece(HOSTILE_CORPUS.map((c) => c.text)), weight: 1 },
);

/** The schemes a link may have (design.md §5). */
export const SAFE_LINK = /^(https?:\/\/|mailto:)/;
