export interface DemoUser {
  phone: string;
  nickname: string;
  country_code: '46' | '62';
}

/**
 * The people of the demo world, listed in the README. Each signs in with the normal PIN flow (the PIN is
 * printed on the server console, or MESSENGER_DEV_PIN fixes it). The first one is the CLI's default user.
 */
export const DEMO_USERS = [
  { phone: '+46701234561', nickname: 'Anna', country_code: '46' },
  { phone: '+46701234562', nickname: 'Erik', country_code: '46' },
  { phone: '+46701234563', nickname: 'Sara', country_code: '46' },
  { phone: '+628123456701', nickname: 'Budi', country_code: '62' },
  { phone: '+628123456702', nickname: 'Sari', country_code: '62' },
  { phone: '+628123456703', nickname: 'Dewi', country_code: '62' },
  { phone: '+628123456704', nickname: 'Agus', country_code: '62' },
  { phone: '+628123456705', nickname: 'Putri', country_code: '62' },
] as const satisfies readonly DemoUser[];

/**
 * The sender of the demo chat's welcome. Its number matches no supported country's pattern, so the PIN
 * request refuses it and nobody can sign in as it.
 */
export const DEMO_BOT = { phone: '+4600000000', nickname: 'Messenger', country_code: '46' } as const;

export type DemoName = (typeof DEMO_USERS)[number]['nickname'];

/** The demo's people by nickname, as row ids. */
export type DemoIds = Record<DemoName, number>;
