import type { Conversation, Message } from '../../protocol/entities';

/** What an export file says besides the messages: the chat, who wrote, when it was made, in which language. */
export interface ExportContext {
  conversation: Conversation;
  /** Names by user id (the members the chat lists; others are "User <id>"). */
  names: ReadonlyMap<number, string>;
  /** Epoch ms of the export. */
  exportedAt: number;
  language: 'en' | 'sv';
  /** 'device': what this device has; 'server': the whole history as the server has it. */
  source: 'device' | 'server';
}

/**
 * The JSON export (issue 24): for scripts, so every field of spec §3 as the server sent it, in one object
 * with the chat and when and from where it was exported. Returned as parts for a Blob, one per message, so
 * 100,000 messages never make one huge string; a generator, so the writer can pause between them.
 */
export function* jsonExport(context: ExportContext, messages: readonly Message[]): Generator<string> {
  const head = {
    format: 'messenger-chat-export',
    version: 1,
    exported_at: new Date(context.exportedAt).toISOString(),
    source: context.source,
    conversation: context.conversation,
  };
  yield JSON.stringify(head, null, 2).replace(/\n}$/, ',\n  "messages": [');
  for (const [i, message] of messages.entries()) yield `${i === 0 ? '\n' : ',\n'}    ${JSON.stringify(message)}`;
  yield messages.length > 0 ? '\n  ]\n}\n' : ']\n}\n';
}

const TEXTS = {
  en: {
    exported: 'Exported {date} from {source}: {count} messages.',
    device: 'this device',
    server: 'the server',
    edited: 'edited',
    attachment: 'Attachment',
    system: 'System message',
    user: 'User {id}',
    quote: 'Reply to message {id}',
    deleted: 'This message was deleted',
  },
  sv: {
    exported: 'Exporterad {date} från {source}: {count} meddelanden.',
    device: 'den här enheten',
    server: 'servern',
    edited: 'redigerat',
    attachment: 'Bilaga',
    system: 'Systemmeddelande',
    user: 'Användare {id}',
    quote: 'Svar på meddelande {id}',
    deleted: 'Det här meddelandet har raderats',
  },
} as const;

const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ''));

/** Text for HTML: every character that could open markup is an entity. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Only http(s) links, and relative ones made absolute against the server, survive as hrefs. */
function safeHref(url: string | undefined, base: string): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url, base);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * The readable export (issue 24): one self-contained HTML file, no script, nothing loaded from anywhere (its
 * Content-Security-Policy says so to the browser that opens it: `default-src 'none'`, inline styles only);
 * what others wrote is text, never markup; attachments are links to where the server keeps them.
 */
export function* htmlExport(context: ExportContext, messages: readonly Message[], apiBase: string): Generator<string> {
  const t = TEXTS[context.language];
  const locale = context.language === 'sv' ? 'sv-SE' : 'en-GB';
  const day = new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  const clock = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hour12: false });
  const full = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' });
  const title = context.conversation.name || `#${context.conversation.id}`;
  yield* [
    `<!doctype html>\n<html lang="${context.language}">\n<head>\n<meta charset="utf-8">\n`,
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">\n`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escapeHtml(title)}</title>\n`,
    '<style>body{font:15px/1.45 system-ui,sans-serif;max-width:46rem;margin:0 auto;padding:1rem;color:#111;background:#fff}' +
      'h1{font-size:1.4rem;margin:0 0 .25rem}h2{font-size:.9rem;text-align:center;color:#555;margin:1.5rem 0 .5rem}' +
      '.m{margin:.35rem 0;padding:.4rem .6rem;border-radius:.5rem;background:#f1f3f4;white-space:pre-wrap;overflow-wrap:anywhere}' +
      '.s{background:none;color:#555;font-style:italic;text-align:center}.w{font-weight:600;margin-right:.4rem}' +
      '.t{color:#666;font-size:.8rem;margin-left:.4rem}.q{color:#555;font-size:.85rem}.meta{color:#555}</style>\n</head>\n<body>\n',
    `<h1>${escapeHtml(title)}</h1>\n<p class="meta">${escapeHtml(
      fill(t.exported, {
        date: full.format(new Date(context.exportedAt)),
        source: context.source === 'server' ? t.server : t.device,
        count: messages.length,
      }),
    )}</p>\n`,
  ];
  let lastDay = '';
  for (const message of messages) {
    const at = new Date(Number(message.created_at) * 1000);
    const dayText = day.format(at);
    if (dayText !== lastDay) {
      yield `<h2>${escapeHtml(dayText)}</h2>\n`;
      lastDay = dayText;
    }
    const who = context.names.get(message.user_id) ?? fill(t.user, { id: message.user_id });
    const time = `<time class="t" datetime="${at.toISOString()}">${escapeHtml(clock.format(at))}${
      message.edited_at > 0 ? ` · ${t.edited}` : ''
    }</time>`;
    if (message.type === 'system') {
      yield `<p class="m s" id="m${message.id}"><bdi>${escapeHtml(message.message || t.system)}</bdi>${time}</p>\n`;
      continue;
    }
    if (message.deleted) {
      // A tombstone (deleted for everybody): who and when, as the chat shows it.
      yield `<p class="m s" id="m${message.id}"><span class="w"><bdi>${escapeHtml(who)}</bdi></span>${escapeHtml(t.deleted)}${time}</p>\n`;
      continue;
    }
    const quote = message.quoted !== null ? `<span class="q">${escapeHtml(fill(t.quote, { id: message.quoted }))}</span>\n` : '';
    const href = safeHref(message.attachment?.url, apiBase);
    const attachment = message.attachment
      ? `\n${href ? `<a href="${escapeHtml(href)}">` : ''}${escapeHtml(
          `${t.attachment}: ${message.attachment.name ?? message.attachment.type}`,
        )}${href ? '</a>' : ''}`
      : '';
    // <bdi>: a right-to-left override in a name or a text ends with it, not with the rest of the page.
    yield `<p class="m" id="m${message.id}">${quote}<span class="w"><bdi>${escapeHtml(who)}</bdi></span><bdi>${escapeHtml(
      message.message,
    )}</bdi>${attachment}${time}</p>\n`;
  }
  yield '</body>\n</html>\n';
}
