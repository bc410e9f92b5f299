import { createHmac } from 'node:crypto';

/**
 * How an issued PIN reaches its owner (spec: out of band). Resolves once it is handed over; throws when it
 * could not be, and the sign-in route then answers 503 so the user asks again.
 */
export type PinDelivery = (phone: string, pin: string) => Promise<void> | void;

/** The reference server's demo delivery (design.md): the PIN printed on its console, never in the structured log. */
export function consolePinDelivery(print: (line: string) => void = console.log): PinDelivery {
  return (phone, pin) => print(`PIN for ${phone}: ${pin}`);
}

export const PIN_WEBHOOK_TIMEOUT_MS = 5_000;

/** The header that signs a webhook request (docs/server.md, "PIN delivery"), as Stripe's and GitHub's do. */
export const PIN_SIGNATURE_HEADER = 'X-Messenger-Signature';

/**
 * The signature of one request: `t=<unix seconds>,v1=<hex>`, where v1 is the HMAC-SHA256 of `<t>.<body>` with
 * the shared secret. The time is signed too, so the gateway can refuse an old request replayed.
 */
export function pinWebhookSignature(secret: string, body: string, unixSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

export interface PinWebhookOptions {
  /** PIN_WEBHOOK_SECRET: signs each request when set. */
  secret?: string | undefined;
  timeoutMs?: number;
  /** Epoch milliseconds, for the signature's time (the server's clock). */
  now?: () => number;
}

/**
 * A deployment's delivery (docs/server.md, "Login"): the PIN POSTed as JSON `{"phone_nr", "pin"}` to PIN_WEBHOOK_URL, an
 * SMS gateway or a small service in front of one. Any answer but 2xx, or none within the timeout, fails.
 * A `user:password@` in the URL goes as Basic auth: fetch refuses a URL that carries credentials.
 */
export function webhookPinDelivery(url: string, options: PinWebhookOptions = {}): PinDelivery {
  const { secret, timeoutMs = PIN_WEBHOOK_TIMEOUT_MS, now = Date.now } = options;
  const target = new URL(url);
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (target.username !== '' || target.password !== '') {
    const credentials = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
    headers.Authorization = `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
    target.username = '';
    target.password = '';
  }
  const endpoint = target.href;
  return async (phone, pin) => {
    const body = JSON.stringify({ phone_nr: phone, pin });
    const signed: Record<string, string> = { ...headers };
    if (secret) signed[PIN_SIGNATURE_HEADER] = pinWebhookSignature(secret, body, Math.floor(now() / 1000));
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: signed,
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The body is not needed; reading it frees the connection.
    await response.arrayBuffer().catch(() => undefined);
    if (!response.ok) throw new Error(`the PIN webhook answered ${response.status}`);
  };
}
