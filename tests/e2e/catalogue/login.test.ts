import type { Page } from 'playwright';
import { call, nextPhone, TEST_PIN } from '../../support/server';
import { png } from '../chat-view-support';
import { type CatalogueEntry, type Stage, walkCatalogue } from './stage';

/** Spec §8 "Login and profile", the login-screen keys and "Files" (the avatar), where the user meets them. */

const phoneField = (s: Stage, page: Page) => page.getByRole('textbox', { name: s.t('login.phone.number') });
const countryField = (s: Stage, page: Page) => page.getByRole('combobox', { name: s.t('login.phone.country') });
const sendCode = (s: Stage, page: Page) => page.getByRole('button', { name: s.t('login.phone.submit') });
const firstDigit = (s: Stage, page: Page) => page.getByRole('textbox', { name: s.t('login.pin.digit', { n: 1, total: 4 }) });
/** Every step is one form; its errors show inside it. */
const form = (page: Page) => page.locator('form');

/** The phone step with Sweden and a new number, the code requested by clicking Send code. */
async function requestCode(s: Stage, page: Page, phone = nextPhone()): Promise<void> {
  await countryField(s, page).selectOption('SE');
  await phoneField(s, page).fill(phone);
  await sendCode(s, page).click();
}

/** A new number through the phone and PIN steps (the real server) to the nickname step. */
async function toNicknameStep(s: Stage): Promise<Page> {
  const { page } = await s.tab('/login');
  await requestCode(s, page);
  await firstDigit(s, page).waitFor();
  await page.keyboard.type(TEST_PIN);
  await page.getByRole('textbox', { name: s.t('login.nickname.label') }).waitFor();
  return page;
}

async function saveNickname(s: Stage, page: Page, nickname: string): Promise<void> {
  await page.getByRole('textbox', { name: s.t('login.nickname.label') }).fill(nickname);
  await page.getByRole('button', { name: s.t('login.nickname.submit') }).click();
}

/** The account page of a signed-in user, opened after `before` (a fault) is in place. */
async function accountPage(s: Stage, before: () => void = () => undefined): Promise<Page> {
  const { page } = await s.person('Ada', '/inbox');
  before();
  await page.goto(`${s.url}/profile`);
  await page.getByRole('button', { name: s.t('settings.nicknameEdit') }).waitFor();
  return page;
}

const entries: CatalogueEntry[] = [
  {
    spec: 'Failed to request the PIN code',
    names: ['failedToSendPin'],
    key: 'login.failedToSendPin',
    async provoke(s) {
      const { page } = await s.tab('/login');
      s.proxy.fail('POST', /^\/v1\/auth\/pin$/);
      await requestCode(s, page);
      return form(page);
    },
  },
  {
    spec: 'failedToSendPinRetry',
    key: 'login.failedToSendPinRetry',
    async provoke(s) {
      const { page } = await s.tab('/login');
      s.proxy.fail('POST', /^\/v1\/auth\/pin$/, { kind: 'drop' });
      await requestCode(s, page);
      return form(page);
    },
  },
  {
    spec: 'Invalid PIN code',
    names: ['invalidPinCode'],
    key: 'login.invalidPinCode',
    async provoke(s) {
      const { page } = await s.tab('/login');
      await requestCode(s, page);
      await firstDigit(s, page).waitFor();
      await page.keyboard.type([...TEST_PIN].map((d) => String((Number(d) + 5) % 10)).join(''));
      return form(page);
    },
  },
  {
    spec: 'Network error occurred',
    key: 'login.networkError',
    async provoke(s) {
      const { page } = await s.tab('/login');
      await requestCode(s, page);
      await firstDigit(s, page).waitFor();
      s.proxy.fail('POST', /^\/v1\/auth\/pin\/confirm$/, { kind: 'drop' });
      await page.keyboard.type(TEST_PIN);
      return form(page);
    },
  },
  {
    spec: 'Failed to register user',
    key: 'errors.register',
    async provoke(s) {
      const page = await toNicknameStep(s);
      s.proxy.fail('POST', /^\/v2\/me\/register$/);
      await saveNickname(s, page, 'Ada');
      return form(page);
    },
  },
  {
    spec: 'failedToSaveNickname',
    key: 'login.failedToSaveNickname',
    async provoke(s) {
      const page = await toNicknameStep(s);
      s.proxy.fail('POST', /^\/v2\/me\/register$/, { kind: 'drop' });
      await saveNickname(s, page, 'Ada');
      return form(page);
    },
  },
  {
    spec: 'pleaseEnterNickname',
    key: 'login.pleaseEnterNickname',
    async provoke(s) {
      const page = await toNicknameStep(s);
      await saveNickname(s, page, '   ');
      return form(page);
    },
  },
  {
    spec: 'Failed to fetch countries',
    key: 'errors.fetchCountries',
    async provoke(s) {
      s.proxy.fail('GET', /^\/v1\/countries$/);
      const { page } = await s.tab('/login');
      return form(page);
    },
  },
  {
    spec: 'Failed to download countries',
    key: 'login.countriesDownloadFailed',
    async provoke(s) {
      s.proxy.fail('GET', /^\/v1\/countries$/, { kind: 'drop' });
      const { page } = await s.tab('/login');
      return form(page);
    },
  },
  {
    spec: 'Failed to load countries',
    key: 'errors.loadCountries',
    async provoke(s) {
      s.proxy.fail('GET', /^\/v1\/countries$/, { kind: 'answer', status: 200, body: { success: true, data: { countries: [] } } });
      const { page } = await s.tab('/login');
      return form(page);
    },
  },
  {
    spec: 'Selected country is not supported',
    names: ['invalidCountrySelection'],
    key: 'login.invalidCountrySelection',
    async provoke(s) {
      // A list with a country the app cannot sign in with (no usable dial code), as a newer server might send.
      const { countries } = (await call<{ countries: Record<string, unknown>[] }>(s.server.url, 'GET', '/v1/countries')).data;
      const odd = { ...countries[0], code: 'XX', name: 'Atlantis', cc: '' };
      s.proxy.fail('GET', /^\/v1\/countries$/, {
        kind: 'answer',
        status: 200,
        body: { success: true, data: { countries: [...countries, odd] } },
      });
      const { page } = await s.tab('/login');
      await countryField(s, page).selectOption('XX');
      await phoneField(s, page).fill('0701234561');
      await sendCode(s, page).click();
      return form(page);
    },
  },
  {
    spec: 'pleaseSelectCountry',
    key: 'login.pleaseSelectCountry',
    async provoke(s) {
      const { page } = await s.tab('/login');
      await countryField(s, page).selectOption('SE');
      await countryField(s, page).selectOption('');
      await phoneField(s, page).fill('0701234561');
      await sendCode(s, page).click();
      return form(page);
    },
  },
  {
    spec: 'pleaseEnterValidPhone',
    key: 'login.pleaseEnterValidPhone',
    async provoke(s) {
      const { page } = await s.tab('/login');
      await requestCode(s, page, '070 12');
      return form(page);
    },
  },
  {
    spec: 'Failed to fetch user profile',
    key: 'failures.fetchProfile',
    async provoke(s) {
      const page = await accountPage(s, () => s.proxy.fail('GET', /^\/v1\/me$/));
      return page.locator('.account');
    },
  },
  {
    spec: 'Failed to update user profile',
    key: 'failures.updateProfile',
    async provoke(s) {
      const page = await accountPage(s);
      s.proxy.fail('PUT', /^\/v1\/me$/);
      await page.getByRole('button', { name: s.t('settings.nicknameEdit') }).click();
      await page.getByRole('textbox', { name: s.t('settings.nickname') }).fill('Ada Lovelace');
      await page.getByRole('button', { name: s.t('settings.nicknameSave') }).click();
      return page.locator('.account');
    },
  },
  {
    // The screens check their input first, with their own more precise texts, so only a script meets the
    // engine's refusal of a call it will not send.
    spec: 'Invalid parameters provided',
    key: 'errors.invalidParameters',
    async provoke(s) {
      const { page } = await s.person('Ada', '/profile');
      const rejected = await page.evaluate(() =>
        window.engine.updateProfile({ nickname: ' ' }).then(
          () => 'accepted',
          (error: { message?: string }) => error.message ?? String(error),
        ),
      );
      return { rejected };
    },
  },
  {
    spec: 'Failed to upload image',
    where: 'the account picture',
    key: 'failures.uploadImage',
    async provoke(s) {
      const page = await accountPage(s);
      s.proxy.fail('POST', /^\/v1\/images$/);
      await page.locator('.account input[type="file"]').setInputFiles({ name: 'face.png', mimeType: 'image/png', buffer: png(64, 64) });
      return page.locator('.account');
    },
  },
];

walkCatalogue('login and profile', entries);
