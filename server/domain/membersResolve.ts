import { NAME_MAX } from '../../src/protocol/constants';
import { type Store, sql } from '../db/store';
import { badRequest } from '../http/errors';
import { type Flag, flagSchema, isOn, charCount, MEMBERS_PER_REQUEST } from './conversationRules';
import { normalizePhone } from './countries';
import { newStid } from './ids';
import type { UserRow } from './rows';

/** One `member[i]` row of a create or add-members form (spec §7). */
export interface MemberField {
  name?: string;
  type?: 'phone_nr' | 'stid';
  value?: string;
  is_admin?: Flag;
}

/** The schema of `member`: a list of rows. Lengths are checked in code so the answer carries our own message. */
export const memberListSchema = {
  type: 'array',
  maxItems: 1001,
  items: {
    type: 'object',
    properties: {
      name: { type: 'string', maxLength: 1000 },
      type: { type: 'string', enum: ['phone_nr', 'stid'] },
      value: { type: 'string', maxLength: 200 },
      is_admin: flagSchema,
    },
  },
} as const;

/** A member named by a request: a user who exists, or a phone number that has not signed up yet. */
export interface ResolvedMember {
  userId: number | null;
  phone: string;
  countryCode: string;
  isAdmin: boolean;
  /** The name the caller typed in the row (trimmed; '' when none). */
  name: string;
}

function where(index: number): string {
  return `(member ${index + 1})`;
}

/**
 * The caller's contacts are typed the way the caller knows them: `+46701234567`, `0046…`, or nationally
 * (`0701234567`), which is read in the caller's own country (spec §5: national, else abroad).
 */
export function memberPhone(raw: string, callerCountryCode: string): { phone: string; cc: string } | null {
  const direct = normalizePhone(raw);
  if (direct) return { phone: direct.phone, cc: direct.country.cc };
  const digits = raw.replace(/[\s().-]/g, '');
  if (digits.startsWith('+') || digits.startsWith('00') || !/^\d+$/.test(digits)) return null;
  const national = normalizePhone(`+${callerCountryCode}${digits.replace(/^0/, '')}`);
  return national ? { phone: national.phone, cc: national.country.cc } : null;
}

/**
 * Checks every row and finds who it names, without writing anything: a request with one bad row is
 * refused as a whole. Fully empty rows are skipped (spec §5), the caller and repeated people are folded.
 */
export async function resolveMembers(
  db: Store,
  rows: MemberField[],
  caller: { id: number; country_code: string },
): Promise<ResolvedMember[]> {
  const filled = rows.filter((r) => (r.name ?? '').trim() !== '' || (r.value ?? '').trim() !== '');
  if (filled.length > MEMBERS_PER_REQUEST) {
    throw badRequest(`At most ${MEMBERS_PER_REQUEST} members can be added at a time`);
  }
  const byKey = new Map<string, ResolvedMember>();
  for (const [index, row] of rows.entries()) {
    const name = (row.name ?? '').trim();
    const value = (row.value ?? '').trim();
    if (name === '' && value === '') continue;
    if (charCount(name) > NAME_MAX) throw badRequest(`Member name must be at most ${NAME_MAX} characters ${where(index)}`);
    const member = row.type === 'stid' ? await byStid(db, value, index) : await byPhone(db, value, index, caller.country_code);
    if (member.userId === caller.id) continue;
    const key = member.userId != null ? `u${member.userId}` : `p${member.phone}`;
    const seen = byKey.get(key);
    if (seen) seen.isAdmin ||= isOn(row.is_admin);
    else byKey.set(key, { ...member, isAdmin: isOn(row.is_admin), name });
  }
  return [...byKey.values()];
}

async function byStid(db: Store, value: string, index: number): Promise<Omit<ResolvedMember, 'isAdmin' | 'name'>> {
  if (value === '') throw badRequest(`A user id is required ${where(index)}`);
  const user = await db.get<UserRow>(sql`SELECT * FROM users WHERE stid = ${value} AND deleted_at = '0'`);
  if (!user) throw badRequest(`Unknown user ${where(index)}`);
  return { userId: user.id, phone: user.phone_nr, countryCode: user.country_code };
}

async function byPhone(
  db: Store,
  value: string,
  index: number,
  callerCountryCode: string,
): Promise<Omit<ResolvedMember, 'isAdmin' | 'name'>> {
  if (value === '') throw badRequest(`Phone number is required ${where(index)}`);
  const normalized = memberPhone(value, callerCountryCode);
  if (!normalized) throw badRequest(`Invalid phone number ${where(index)}`);
  const user = await db.get<UserRow>(sql`SELECT * FROM users WHERE phone_nr = ${normalized.phone}`);
  if (user && user.deleted_at !== '0') throw badRequest(`This user is no longer available ${where(index)}`);
  return { userId: user?.id ?? null, phone: normalized.phone, countryCode: normalized.cc };
}

/**
 * Creates a user row for each number that has not signed up yet (empty nickname: they get their chats
 * when they first sign in with that number). Call inside the transaction that adds them.
 */
export async function materializeMembers(
  db: Store,
  members: ResolvedMember[],
  now: number,
): Promise<{ userId: number; isAdmin: boolean }[]> {
  const out: { userId: number; isAdmin: boolean }[] = [];
  for (const m of members) out.push({ userId: m.userId ?? (await userOfPhone(db, m, now)), isAdmin: m.isAdmin });
  return out;
}

/**
 * The new user of a number that had none when the request was checked. Another request may have made it
 * since (the check runs before the transaction, and requests no longer run one at a time): then that one.
 */
async function userOfPhone(db: Store, m: ResolvedMember, now: number): Promise<number> {
  const inserted = await db.get<{ id: number }>(
    sql`INSERT INTO users (stid, phone_nr, country_code, created_at) VALUES (${newStid('u')}, ${m.phone}, ${m.countryCode}, ${now})
        ON CONFLICT (phone_nr) DO NOTHING RETURNING id`,
  );
  if (inserted) return inserted.id;
  return (await db.get<{ id: number }>(sql`SELECT id FROM users WHERE phone_nr = ${m.phone}`))!.id;
}
