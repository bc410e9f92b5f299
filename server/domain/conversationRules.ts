import { DESCRIPTION_MAX, NAME_MAX, NAME_MIN } from '../../src/protocol/constants';
import { HEADER_MESSAGE_COUNT } from '../../src/protocol/api';
import { badRequest, forbidden } from '../http/errors';
import { numberHeader } from '../http/numbers';
import type { ConversationRow } from './rows';

/** How many latest messages a listed conversation carries, unless Message-Count says otherwise. */
export const LIST_MESSAGE_COUNT = 1;
export const LIST_MESSAGE_COUNT_MAX = 50;
/** How many latest messages one conversation carries (spec §7 default 20), and the most a client may ask for. */
export const CONVERSATION_MESSAGE_COUNT = 20;
export const CONVERSATION_MESSAGE_COUNT_MAX = 100;
/** The most members one create or add request may name. */
export const MEMBERS_PER_REQUEST = 256;

/**
 * A boolean form field. Forms send '1'/'0' (spec §7); 'true'/'false' and an empty value (an unticked
 * box) are accepted too. With Ajv's type coercion a JSON true or 1 arrives as 'true' or '1'.
 */
export type Flag = '0' | '1' | 'true' | 'false' | '';
export const flagSchema = { type: 'string', enum: ['0', '1', 'true', 'false', ''] } as const;
export const isOn = (flag: Flag | undefined): boolean => flag === '1' || flag === 'true';
export const isOff = (flag: Flag | undefined): boolean => flag === '0' || flag === 'false';

/** Length in characters as a person counts them (an emoji is one), not UTF-16 units. */
export const charCount = (text: string): number => [...text].length;

/** Group and broadcast names (spec §5, design.md §4: 2 to 50 characters, trimmed). */
export function validGroupName(raw: string | undefined): string {
  const name = (raw ?? '').trim();
  if (name === '') throw badRequest('Name cannot be empty');
  if (charCount(name) < NAME_MIN) throw badRequest(`Name must be at least ${NAME_MIN} characters`);
  if (charCount(name) > NAME_MAX) throw badRequest(`Name must be at most ${NAME_MAX} characters`);
  return name;
}

export function validDescription(raw: string): string {
  const description = raw.trim();
  if (charCount(description) > DESCRIPTION_MAX) {
    throw badRequest(`Description must be at most ${DESCRIPTION_MAX} characters`);
  }
  return description;
}

/**
 * The Message-Count header of every route that takes it: absent means `fallback`; otherwise the number
 * rule (server/http/numbers.ts) within min..max, so a blank value is a 400 like any other non-number.
 */
export function messageCountHeader(raw: string | string[] | undefined, fallback: number, min: number, max: number): number {
  return numberHeader(raw, HEADER_MESSAGE_COUNT, { min, max }, fallback);
}

/** Community channels and feeds are managed by the community routes, never by the group routes. */
export function refuseCommunityChannel(conversation: ConversationRow): void {
  if (conversation.group_type !== 'normal' || conversation.community_id != null) {
    throw forbidden('Community channels are managed by their community');
  }
}

export function requireGroup(conversation: ConversationRow, message: string): void {
  refuseCommunityChannel(conversation);
  if (conversation.is_group !== 1) throw forbidden(message);
}
