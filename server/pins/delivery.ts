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

/**
 * A deployment's delivery (issue 21): the PIN POSTed as JSON `{"phone_nr", "pin"}` to PIN_WEBHOOK_URL, an
 * SMS gateway or a small service in front of one. Any answer but 2xx, or none within the timeout, fails.
 */
export function webhookPinDelivery(url: string, timeoutMs = PIN_WEBHOOK_TIMEOUT_MS): PinDelivery {
  return async (phone, pin) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ phone_nr: phone, pin }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The body is not needed; reading it frees the connection.
    await response.arrayBuffer().catch(() => undefined);
    if (!response.ok) throw new Error(`the PIN webhook answered ${response.status}`);
  };
}
