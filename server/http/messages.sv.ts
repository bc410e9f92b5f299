/**
 * The server's texts in Swedish (issue 10, docs/server.md "Languages"). The server's code writes its
 * messages in English; the error handler sends them in the language the request asks for, through this
 * table. tests/server/swedish-texts.test.ts reads the server's source for every message it can send and
 * fails when one has no entry here (or an entry here is no longer sent).
 */

/**
 * Texts of spec §8's catalogue that the server sends too. They are the client's: it knows them by their
 * English wording and shows them in its own language (src/ui/common/errorText.ts, and the login screen's
 * own texts for them), so they go out in English whatever the language asked for.
 */
export const CLIENT_TRANSLATED: ReadonlySet<string> = new Set([
  'An unexpected error occurred',
  'Invalid conversation ID provided',
  'Invalid parameters provided',
  'Invalid message provided',
  'Invalid PIN code',
  'Community not found',
  'No channel data available',
]);

/** Every fixed text the server sends, English → Swedish. */
export const SWEDISH: Readonly<Record<string, string>> = {
  // The edge: authentication, routing, bodies and uploads
  Unauthorized: 'Ej behörig',
  'Not found': 'Hittades inte',
  'Bad request': 'Felaktig begäran',
  'The service is briefly unavailable. Please try again in a moment.':
    'Tjänsten är inte tillgänglig just nu. Försök igen om en stund.',
  'The request body is not valid JSON.': 'Begärans innehåll är inte giltig JSON.',
  'The request body is empty.': 'Begärans innehåll är tomt.',
  'The request body is too large.': 'Begärans innehåll är för stort.',
  'Unsupported content type.': 'Innehållstypen stöds inte.',
  'Invalid Content-Length.': 'Ogiltig Content-Length.',
  'The form body could not be read.': 'Formulärets innehåll kunde inte läsas.',
  'The request is not multipart.': 'Begäran är inte multipart.',
  'File size too large.': 'Filen är för stor.',
  'Too many parts in the upload.': 'Uppladdningen har för många delar.',
  'Only one file may be uploaded at a time.': 'Bara en fil kan laddas upp åt gången.',
  'Too many fields in the upload.': 'Uppladdningen har för många fält.',
  'The upload was cut short or is malformed.': 'Uppladdningen avbröts eller är felaktig.',
  'No file was uploaded.': 'Ingen fil laddades upp.',
  'The file is empty.': 'Filen är tom.',
  'File size too large. Please select a file under 50MB': 'Filen är för stor. Välj en fil under 50 MB',
  'File type not supported. Please select an image or video file.': 'Filtypen stöds inte. Välj en bild eller en video.',
  'The image could not be read: it is damaged or cut short.': 'Bilden gick inte att läsa: den är skadad eller ofullständig.',
  'The image has too many pixels. Please select a smaller image.': 'Bilden har för många pixlar. Välj en mindre bild.',
  'Image too big. Please select an image under 3MB': 'Bilden är för stor. Välj en bild under 3 MB',
  'Please select an image': 'Välj en bild',
  'File not found': 'Filen hittades inte',

  // Login and profile
  'Please enter a valid phone number': 'Ange ett giltigt telefonnummer',
  'Too many wrong PIN codes for this number. Please try again tomorrow.':
    'För många felaktiga PIN-koder för det här numret. Försök igen i morgon.',
  'The PIN code could not be sent. Please try again.': 'PIN-koden kunde inte skickas. Försök igen.',
  'This account has been deactivated.': 'Det här kontot har inaktiverats.',
  'Too many sign-in attempts from this address. Please wait a minute.':
    'För många inloggningsförsök från den här adressen. Vänta en minut.',
  'The PIN code has expired or was never sent. Please request a new one.':
    'PIN-koden har gått ut eller skickades aldrig. Begär en ny.',
  'Please enter a nickname': 'Ange ett smeknamn',
  'Please enter a valid email': 'Ange en giltig e-postadress',
  'Nothing to update': 'Det finns inget att uppdatera',
  'Unknown image': 'Okänd bild',

  // Conversations and members
  'Conversation not found': 'Chatten hittades inte',
  'User not found': 'Användaren hittades inte',
  'Session not found': 'Sessionen hittades inte',
  'Name cannot be empty': 'Namnet får inte vara tomt',
  'Add at least one member other than yourself': 'Lägg till minst en annan medlem än dig själv',
  'A one-to-one chat has no group settings': 'En privat chatt har inga gruppinställningar',
  'Only admins can change group settings': 'Bara administratörer kan ändra gruppens inställningar',
  'Community channels are managed by their community': 'Gemenskapens kanaler hanteras av gemenskapen',
  'Unknown time zone': 'Okänd tidszon',
  'smart_mode_options can only be given with mode smart': 'smart_mode_options kan bara anges med läget smart',
  'Invalid user ID provided': 'Ogiltigt användar-id',
  'This user is not a member of the conversation': 'Användaren är inte medlem i chatten',
  'Members cannot be added to a one-to-one chat': 'Det går inte att lägga till medlemmar i en privat chatt',
  'Only admins can add members to this group': 'Bara administratörer kan lägga till medlemmar i den här gruppen',
  'Only admins can make other members admins': 'Bara administratörer kan göra andra medlemmar till administratörer',
  'You cannot leave a one-to-one chat': 'Du kan inte lämna en privat chatt',
  'Members cannot be removed from a one-to-one chat': 'Det går inte att ta bort medlemmar från en privat chatt',
  'Only admins can remove members': 'Bara administratörer kan ta bort medlemmar',
  'An admin cannot remove themselves while they are the only admin. Make another member an admin first.':
    'En administratör kan inte ta bort sig själv som enda administratör. Gör först en annan medlem till administratör.',
  'A one-to-one chat has no admins': 'En privat chatt har inga administratörer',
  'Only admins can promote or demote members': 'Bara administratörer kan ändra medlemmarnas administratörsstatus',
  'A group needs at least one admin. Make another member an admin first.':
    'En grupp behöver minst en administratör. Gör först en annan medlem till administratör.',
  'A one-to-one chat cannot be deleted for everybody': 'En privat chatt kan inte raderas för alla',
  'Only admins can delete the group': 'Bara administratörer kan radera gruppen',
  'is_admin must be 1 or 0': 'is_admin måste vara 1 eller 0',

  // Messages
  'You are sending too fast. Please wait a moment.': 'Du skickar för snabbt. Vänta en stund.',
  'Message not found': 'Meddelandet hittades inte',
  'Invalid message ID provided': 'Ogiltigt meddelande-id',
  'Before and After cannot be used together': 'Before och After kan inte användas tillsammans',
  'Since cannot be used with Before or After': 'Since kan inte användas med Before eller After',
  'This is a demo chat': 'Det här är en demochatt',
  'System messages cannot be edited': 'Systemmeddelanden kan inte redigeras',
  'You can only edit your own messages': 'Du kan bara redigera dina egna meddelanden',
  'This message is too old to edit': 'Meddelandet är för gammalt för att redigeras',
  'A message cannot be empty': 'Ett meddelande får inte vara tomt',
  'A message needs text or an attachment': 'Ett meddelande behöver text eller en bilaga',
  'Unknown attachment file': 'Okänd bifogad fil',
  'You can only delete your own messages': 'Du kan bara radera dina egna meddelanden',
  'System messages cannot be deleted': 'Systemmeddelanden kan inte raderas',
  'Delete for me is unavailable for pinned messages': 'Radera för mig går inte för fästa meddelanden',
  'Receipts are only sent for messages of other users': 'Kvitton skickas bara för andra användares meddelanden',
  'Only community admins can send announcements.': 'Bara gemenskapens administratörer kan skicka tillkännagivanden.',
  'Only community admins can send messages.': 'Bara gemenskapens administratörer kan skicka meddelanden.',
  'Only community admins can reply in channels.': 'Bara gemenskapens administratörer kan svara i kanaler.',
  'Only broadcasters can send messages in a broadcast group.': 'Bara sändare kan skicka meddelanden i en sändningsgrupp.',

  // Communities, channels and comments
  'Communities are not available in your country': 'Gemenskaper finns inte i ditt land',
  'This community is private. Only invited members can join.':
    'Den här gemenskapen är privat. Bara inbjudna medlemmar kan gå med.',
  'You are not a member of this community': 'Du är inte medlem i den här gemenskapen',
  'Community admins cannot leave the community': 'Gemenskapens administratörer kan inte lämna gemenskapen',
  'Join the community before joining its channels': 'Gå med i gemenskapen innan du går med i dess kanaler',
  'You are not a member of this channel': 'Du är inte medlem i den här kanalen',
  'Post not found': 'Inlägget hittades inte',
  'Comment not found': 'Kommentaren hittades inte',
  'Comments can only be added to channel posts': 'Kommentarer kan bara skrivas till inlägg i kanaler',
  'Comments are turned off in this channel': 'Kommentarer är avstängda i den här kanalen',
  'A comment cannot carry an attachment': 'En kommentar kan inte ha en bilaga',
  'A comment cannot quote a message': 'En kommentar kan inte citera ett meddelande',
};

/**
 * A text made with values: `{name}` stands for a value in both languages. A value that is itself a
 * word is translated by `values` (a value it does not know stays as it is).
 */
export interface SwedishPattern {
  en: string;
  sv: string;
  values?: Readonly<Record<string, (value: string) => string>>;
}

/** "(member 3)": which row of a member form (server/domain/membersResolve.ts). */
const memberRow = (value: string) => value.replace(/^\(member (\d+)\)$/, '(medlem $1)');
const word = (words: Record<string, string>) => (value: string) => words[value] ?? value;
/** "12 minutes", "1 minute": a wait (server/domain/pinRequestWait.ts). */
const minutes = (value: string) => value.replace(/^(\d+) minutes?$/, (_, n: string) => (n === '1' ? '1 minut' : `${n} minuter`));

export const SWEDISH_PATTERNS: readonly SwedishPattern[] = [
  { en: 'Nickname must be at most {max} characters', sv: 'Smeknamnet får vara högst {max} tecken' },
  { en: 'Name must be at least {min} characters', sv: 'Namnet måste vara minst {min} tecken' },
  { en: 'Name must be at most {max} characters', sv: 'Namnet får vara högst {max} tecken' },
  { en: 'Description must be at most {max} characters', sv: 'Beskrivningen får vara högst {max} tecken' },
  // The number rule (server/http/numbers.ts); the field is named as the client wrote it, in any language.
  { en: '{field} must be a whole number from {min} to {max}', sv: '{field} måste vara ett heltal från {min} till {max}' },
  { en: 'At most {max} members can be added at a time', sv: 'Högst {max} medlemmar kan läggas till åt gången' },
  {
    en: 'Member name must be at most {max} characters {row}',
    sv: 'Medlemmens namn får vara högst {max} tecken {row}',
    values: { row: memberRow },
  },
  { en: 'A user id is required {row}', sv: 'Ett användar-id krävs {row}', values: { row: memberRow } },
  { en: 'Unknown user {row}', sv: 'Okänd användare {row}', values: { row: memberRow } },
  { en: 'Phone number is required {row}', sv: 'Telefonnummer krävs {row}', values: { row: memberRow } },
  { en: 'Invalid phone number {row}', sv: 'Ogiltigt telefonnummer {row}', values: { row: memberRow } },
  { en: 'This user is no longer available {row}', sv: 'Användaren finns inte längre {row}', values: { row: memberRow } },
  {
    en: 'Too many PIN requests for this number. Try again in {wait}.',
    sv: 'För många begäranden om PIN-kod för det här numret. Försök igen om {wait}.',
    values: { wait: minutes },
  },
  {
    en: 'Too many wrong PIN codes. This number is locked; try again in {wait}.',
    sv: 'För många felaktiga PIN-koder. Numret är låst; försök igen om {wait}.',
    values: { wait: minutes },
  },
  { en: 'A message can be at most {max} characters', sv: 'Ett meddelande får vara högst {max} tecken' },
  {
    en: 'The attached file is not an {kind}',
    sv: 'Den bifogade filen är inte {kind}',
    values: { kind: word({ image: 'en bild', video: 'en video' }) },
  },
  {
    en: 'At most {max} reactions per {target}',
    sv: 'Högst {max} reaktioner per {target}',
    values: { target: word({ message: 'meddelande', comment: 'kommentar' }) },
  },
  { en: 'Idempotency-Key must be at most {max} characters', sv: 'Idempotency-Key får vara högst {max} tecken' },
  { en: 'A form may have at most {max} fields', sv: 'Ett formulär får ha högst {max} fält' },
  { en: 'The file must be sent in the "{field}" field.', sv: 'Filen måste skickas i fältet "{field}".' },
];

/** What a Swedish client is told when Fastify refuses a request with a text of its own (not ours). */
export const SWEDISH_GENERIC_REFUSAL = 'Servern kunde inte behandla begäran.';

/** The holes of a pattern, in order. */
export function patternHoles(pattern: string): string[] {
  return [...pattern.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const compiled = SWEDISH_PATTERNS.map((pattern) => {
  const holes = patternHoles(pattern.en);
  const source = pattern.en
    .split(/\{\w+\}/)
    .map(escape)
    .join('(.+?)');
  return { pattern, holes, regex: new RegExp(`^${source}$`, 's') };
});

/** The Swedish of one of the server's English texts; null when the table has none. */
export function swedishFor(english: string): string | null {
  if (Object.hasOwn(SWEDISH, english)) return SWEDISH[english] as string;
  for (const { pattern, holes, regex } of compiled) {
    const match = regex.exec(english);
    if (!match) continue;
    const values = new Map(holes.map((hole, i) => [hole, match[i + 1] as string]));
    return pattern.sv.replace(/\{(\w+)\}/g, (whole, hole: string) => {
      const value = values.get(hole);
      if (value === undefined) return whole;
      return pattern.values?.[hole]?.(value) ?? value;
    });
  }
  return null;
}

/** An AJV error, as much of it as the Swedish text needs. */
export interface SchemaError {
  keyword: string;
  params: Record<string, unknown>;
}

const TYPES: Record<string, string> = {
  integer: 'ett heltal',
  number: 'ett tal',
  string: 'en text',
  boolean: 'sant eller falskt',
  array: 'en lista',
  object: 'ett objekt',
  null: 'tomt',
};

/**
 * A schema refusal in Swedish: "Ogiltigt värde för {field}: {what is wrong}". The English text is AJV's
 * own ("Invalid {field}: must be integer"); this one is made from AJV's keyword and its limit.
 */
export function swedishSchemaMessage(field: string | null, error: SchemaError | undefined): string {
  const where = field ? `Ogiltigt värde för ${field}` : 'Ogiltig begäran';
  return `${where}: ${schemaDetail(error)}`;
}

function schemaDetail(error: SchemaError | undefined): string {
  const limit = String(error?.params.limit ?? '');
  switch (error?.keyword) {
    case 'required':
      return 'uppgiften saknas';
    case 'type': {
      const raw = error.params.type;
      const types = (Array.isArray(raw) ? raw : String(raw ?? '').split(',')).map((t) => TYPES[String(t)] ?? String(t));
      return `måste vara ${types.join(' eller ')}`;
    }
    case 'minLength':
      return `måste vara minst ${limit} tecken`;
    case 'maxLength':
      return `får vara högst ${limit} tecken`;
    case 'minimum':
      return `måste vara minst ${limit}`;
    case 'maximum':
      return `får vara högst ${limit}`;
    case 'exclusiveMinimum':
      return `måste vara större än ${limit}`;
    case 'exclusiveMaximum':
      return `måste vara mindre än ${limit}`;
    case 'minItems':
      return `måste ha minst ${limit} värden`;
    case 'maxItems':
      return `får ha högst ${limit} värden`;
    case 'minProperties':
      return `måste ha minst ${limit} fält`;
    case 'maxProperties':
      return `får ha högst ${limit} fält`;
    case 'enum':
    case 'const':
      return 'är inte ett av de tillåtna värdena';
    case 'pattern':
    case 'format':
      return 'har fel form';
    case 'additionalProperties':
      return `okänt fält ${String(error.params.additionalProperty ?? '')}`.trimEnd();
    default:
      return 'ogiltigt värde';
  }
}
