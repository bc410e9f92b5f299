import axe from 'axe-core';
import { BehaviorSubject, NEVER, Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { AppSettings, ChannelsView, CommunitiesView, ConversationListItem, CountriesView, SessionView } from '../../src/engine/api';
import type { Channel, Community, Country } from '../../src/protocol/entities';
import { deferred } from './inbox-support';
import '../../src/ui/styles.css';
import { renderApp, unmount } from './inbox-support';
import { defaultSettings, fakeTabEngine } from './support/fakeEngine';

afterEach(unmount);

const INDONESIA: Country = {
  code: 'ID',
  name: 'Indonesia',
  cc: '62',
  validation: '^0?8[1-9]\\d{7,10}$',
  validation_abroad: '^\\+628[1-9]\\d{7,10}$',
  format_international: ['', ''],
  endpoints: { http: '', ws: '' },
  communities_enabled: true,
};

const community = (patch: Partial<Community> = {}): Community => ({
  id: 7,
  name: 'Kopi Nusantara',
  description: 'Jadwal di https://kopi.example/jadwal, bukan javascript:alert(1)',
  avatar: null,
  avatar_thumbnail_url: '',
  members_count: 5,
  is_private: false,
  is_member: true,
  announcements_channel_stid: 'ch1',
  announcements_channel_id: 11,
  member: { user_id: 1, is_admin: false },
  ...patch,
});

const channel = (id: number, name: string, patch: Partial<Channel> = {}): Channel => ({
  id,
  stid: `ch${id}`,
  name,
  logo: null,
  description: '',
  created_at: '1',
  members_count: 5,
  is_community_announcements: false,
  community_id: 7,
  is_member: true,
  read_only: false,
  disable_comments: false,
  ...patch,
});

/** An Indonesian user's engine with one community ("Kopi Nusantara", id 7) and its three channels. */
function fakeEngine(patch: Partial<Community> = {}, shownChannel: Channel = channel(11, 'Pengumuman', { is_community_announcements: true })) {
  const kopi = community(patch);
  const communities = new BehaviorSubject<CommunitiesView>({
    communities: [kopi, community({ id: 8, name: 'Fotografi Bali', description: '', is_member: false, member: null })],
    joined: [kopi],
    loaded: true,
    search: null,
  });
  const channels = new BehaviorSubject<ChannelsView>({
    channels: [
      channel(12, 'Diskusi Umum'),
      channel(11, 'Pengumuman', { is_community_announcements: true }),
      channel(13, 'Resep & Tips', { read_only: true, is_member: false }),
    ],
    loaded: true,
  });
  const shownCommunity = new BehaviorSubject<Community | null>(kopi);
  const { engine, asTab } = fakeTabEngine(
    {
      session: new BehaviorSubject<SessionView>({ status: 'ready', userId: 1, nickname: 'Dewi', phone: '+628123456703', countryCode: '62', avatarUrl: null }),
      conversations: new BehaviorSubject<readonly ConversationListItem[]>([]),
      countries: new BehaviorSubject<CountriesView>({ countries: [INDONESIA], status: 'loaded', error: null }),
      connection: new BehaviorSubject('online'),
      settings: new BehaviorSubject<AppSettings>(defaultSettings()),
      removedConversations: new Subject<number>(),
      notifications: NEVER,
      language: NEVER,
      communities,
      community: shownCommunity,
      channels,
      channel: new BehaviorSubject<Channel | null>(shownChannel),
      // A channel joined opens in the chat view: it stays loading here.
      conversation: NEVER,
    },
    {
      loadCountries: vi.fn(async () => [INDONESIA]),
      refreshConversations: vi.fn(async () => undefined),
      setOpenConversation: vi.fn(),
      noteReloadInto: vi.fn(() => true),
      setNotificationPermission: vi.fn(),
      refreshCommunities: vi.fn(async (): Promise<Community[]> => []),
      searchCommunities: vi.fn(async (_query: string) => [] as Community[]),
      openCommunity: vi.fn(async () => kopi),
      leaveCommunity: vi.fn(async () => kopi),
      joinCommunity: vi.fn(async () => kopi),
      loadChannel: vi.fn(async () => shownChannel),
      joinChannel: vi.fn(async () => shownChannel),
      leaveChannel: vi.fn(async () => shownChannel),
      openConversation: vi.fn(() => new Promise<void>(() => undefined)),
    },
    { tabId: 'tab-1', mode: 'shared-worker' },
  );
  return { engine, asTab, communities, community: shownCommunity };
}

/** axe-core's serious and critical findings in the rendered app. */
async function seriousViolations(root: HTMLElement) {
  const { violations } = await axe.run(root, { resultTypes: ['violations'] });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('the community screens', () => {
  it('explore: your communities and the others, each a link to its details, with no serious axe finding', async () => {
    const { engine, asTab } = fakeEngine();
    const { host } = await renderApp(asTab, '/explore');
    await expect.element(page.getByRole('heading', { name: 'Your communities' })).toBeInTheDocument();
    await expect.element(page.getByRole('link', { name: /^Kopi Nusantara/ })).toHaveAttribute('href', '/explore/7');
    await expect.element(page.getByRole('link', { name: /^Fotografi Bali/ })).toHaveAttribute('href', '/explore/8');
    expect(engine.refreshCommunities).toHaveBeenCalled();
    expect(await seriousViolations(host)).toEqual([]);
    await userEvent.type(page.getByRole('searchbox', { name: 'Search communities' }), 'kopi');
    await expect.poll(() => engine.searchCommunities.mock.calls.at(-1)?.[0]).toBe('kopi');
  });

  it('details: links in the description follow the message rule, announcements come first, a member may leave after confirming', async () => {
    const { engine, asTab } = fakeEngine();
    const { host } = await renderApp(asTab, '/explore/7');
    await expect.element(page.getByRole('heading', { name: 'Channels' })).toBeInTheDocument();
    const link = page.getByRole('link', { name: 'https://kopi.example/jadwal' });
    await expect.element(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(host.textContent).toContain('javascript:alert(1)');
    expect(host.querySelector('a[href^="javascript"]')).toBeNull();
    const names = [...host.querySelectorAll('.channel-row__name')].map((n) => n.textContent);
    expect(names).toEqual(['Pengumuman', 'Diskusi Umum', 'Resep & Tips']);
    expect(await seriousViolations(host)).toEqual([]);

    engine.leaveCommunity.mockRejectedValueOnce({ name: 'EngineError', status: 403, message: 'Community admins cannot leave', fallback: 'x', call: 'leaveCommunity' });
    await userEvent.click(page.getByRole('button', { name: 'Leave community' }));
    const dialog = page.getByRole('dialog', { name: 'Leave Kopi Nusantara?' });
    await expect.element(dialog).toBeInTheDocument();
    await userEvent.click(page.getByRole('button', { name: 'Leave', exact: true }));
    // Refused: the server's words inline, the dialog stays, nothing else changes.
    await expect.element(dialog.getByRole('alert')).toHaveTextContent('Community admins cannot leave');
    await userEvent.click(page.getByRole('button', { name: 'Leave', exact: true }));
    await expect.element(page.getByRole('dialog')).not.toBeInTheDocument();
    expect(engine.leaveCommunity).toHaveBeenCalledTimes(2);
  });

  it('details: the community’s picture and a channel’s logo show their thumbnails, never the originals (docs/ui.md)', async () => {
    const thumbnail = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const original = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
    const { asTab } = fakeEngine({ avatar: { url: original }, avatar_thumbnail_url: thumbnail });
    await renderApp(asTab, '/explore/7');
    await expect.element(page.getByRole('heading', { name: 'Channels' })).toBeInTheDocument();
    await expect.poll(() => document.querySelector('.community__card img')?.getAttribute('src')).toBe(thumbnail);
    expect(document.querySelectorAll(`img[src="${original}"]`)).toHaveLength(0);
    await unmount();

    const logo = { url: original, thumbnail };
    const second = fakeEngine({}, channel(12, 'Diskusi Umum', { logo }));
    await renderApp(second.asTab, '/explore/7/channels/12');
    await expect.poll(() => document.querySelector('img')?.getAttribute('src')).toBe(thumbnail);
    expect(document.querySelectorAll(`img[src="${original}"]`)).toHaveLength(0);
  });

  it('details: a community admin has no Leave button', async () => {
    const { asTab } = fakeEngine({ member: { user_id: 1, is_admin: true } });
    await renderApp(asTab, '/explore/7');
    await expect.element(page.getByText('You are an admin of this community.')).toBeInTheDocument();
    expect(page.getByRole('button', { name: 'Leave community' }).elements()).toHaveLength(0);
  });

  it('an unknown community: "Community not found" and Go back to /explore, in Swedish too', async () => {
    const { engine, asTab } = fakeEngine();
    const notFound = { name: 'EngineError', status: 404, message: 'Community not found', fallback: 'An unexpected error occurred', call: 'getCommunity' };
    engine.openCommunity.mockRejectedValue(notFound);
    const { router } = await renderApp(asTab, '/explore/999', 'sv');
    await expect.element(page.getByText('Gemenskapen hittades inte')).toBeInTheDocument();
    await userEvent.click(page.getByRole('link', { name: 'Gå tillbaka' }));
    await expect.poll(() => router.state.location.pathname).toBe('/explore');
  });

  it('explore: loading, then an error with a retry, an empty list, and a search of this tab with no match or results', async () => {
    const { engine, asTab, communities } = fakeEngine();
    communities.next({ communities: [], joined: [], loaded: false, search: null });
    const refresh = deferred<Community[]>();
    engine.refreshCommunities.mockReturnValueOnce(refresh.promise);
    await renderApp(asTab, '/explore');
    await expect.element(page.getByText('Loading communities…')).toBeInTheDocument();
    refresh.reject({ name: 'EngineError', status: 0, message: 'Network error occurred', fallback: 'x', call: 'getCommunities' });
    await expect.element(page.getByRole('alert')).toHaveTextContent('Network error occurred');
    await userEvent.click(page.getByRole('button', { name: 'Try again' }));
    await expect.poll(() => engine.refreshCommunities.mock.calls.length).toBe(2);
    communities.next({ communities: [], joined: [], loaded: true, search: null });
    await expect.element(page.getByText('No communities available')).toBeInTheDocument();

    await userEvent.type(page.getByRole('searchbox', { name: 'Search communities' }), 'zzz');
    await expect.element(page.getByText('No communities found matching your search.')).toBeInTheDocument();
    engine.searchCommunities.mockResolvedValueOnce([community({ id: 9, name: 'Kopi Bandung', is_member: false, member: null })]);
    await userEvent.fill(page.getByRole('searchbox', { name: 'Search communities' }), 'kopi');
    await expect.element(page.getByRole('link', { name: /^Kopi Bandung/ })).toHaveAttribute('href', '/explore/9');
    // Another tab searching changes the engine's shared search, not what this tab shows.
    communities.next({ communities: [], joined: [], loaded: true, search: { query: 'bali', results: [], status: 'loaded', error: null } });
    await expect.element(page.getByRole('link', { name: /^Kopi Bandung/ })).toBeInTheDocument();
  });

  it('channel info: Join opens the channel; leaving announcements says it leaves the community; its admins have no Leave', async () => {
    const notJoined = channel(13, 'Resep & Tips', { read_only: true, is_member: false });
    const first = fakeEngine({}, notJoined);
    const { router } = await renderApp(first.asTab, '/explore/7/channels/13');
    await expect.element(page.getByText('Only community admins post here.')).toBeInTheDocument();
    await userEvent.click(page.getByRole('button', { name: 'Join channel' }));
    expect(first.engine.joinChannel).toHaveBeenCalledWith(13);
    await expect.poll(() => router.state.location.pathname).toBe('/inbox/13');
    await unmount();

    const member = fakeEngine();
    await renderApp(member.asTab, '/explore/7/channels/11');
    await userEvent.click(page.getByRole('button', { name: 'Leave channel' }));
    await expect.element(page.getByRole('dialog')).toHaveTextContent(
      'This is the announcements channel of Kopi Nusantara: leaving it means leaving the community and all of its channels.',
    );
    await userEvent.click(page.getByRole('button', { name: 'Leave', exact: true }));
    expect(member.engine.leaveChannel).toHaveBeenCalledWith(11);
    await unmount();

    const admin = fakeEngine({ member: { user_id: 1, is_admin: true } });
    await renderApp(admin.asTab, '/explore/7/channels/11');
    await expect.element(page.getByRole('link', { name: 'Open channel' })).toBeInTheDocument();
    expect(page.getByRole('button', { name: 'Leave channel' }).elements()).toHaveLength(0);
  });

  it('channel info of a community the user is not in: Join channel is disabled and says why; Join community there enables it (issue 23)', async () => {
    const { engine, asTab, community } = fakeEngine({ is_member: false, member: null }, channel(21, 'Galeri', { is_member: false }));
    engine.joinCommunity.mockImplementation(async () => {
      const joined = { ...(community.value as Community), is_member: true, member: { user_id: 1, is_admin: false } };
      community.next(joined);
      return joined;
    });
    await renderApp(asTab, '/explore/7/channels/21');
    const join = page.getByRole('button', { name: 'Join channel' });
    await expect.element(join).toBeDisabled();
    await expect.element(join).toHaveAccessibleDescription('Only members of Kopi Nusantara can join Galeri. Join the community first.');
    await userEvent.click(page.getByRole('button', { name: 'Join community' }));
    expect(engine.joinCommunity).toHaveBeenCalledWith(7);
    await expect.element(join).toBeEnabled();
    await expect.element(join).toHaveFocus();
    expect(page.getByRole('button', { name: 'Join community' }).elements()).toHaveLength(0);
    expect(engine.joinChannel).not.toHaveBeenCalled();
    await userEvent.click(join);
    expect(engine.joinChannel).toHaveBeenCalledWith(21);
    await unmount();

    // In Swedish; a refused join of the community says why, and Join channel stays disabled.
    const refused = fakeEngine({ is_member: false, member: null }, channel(21, 'Galeri', { is_member: false }));
    refused.engine.joinCommunity.mockRejectedValueOnce({ name: 'EngineError', status: 500, message: 'Failed to join community', fallback: 'x', call: 'joinCommunity' });
    await renderApp(refused.asTab, '/explore/7/channels/21', 'sv');
    const gå = page.getByRole('button', { name: 'Gå med i kanalen' });
    await expect.element(gå).toHaveAccessibleDescription('Bara medlemmar i Kopi Nusantara kan gå med i Galeri. Gå med i gemenskapen först.');
    await userEvent.click(page.getByRole('button', { name: 'Gå med i gemenskapen' }));
    await expect.element(page.getByRole('alert')).toBeInTheDocument();
    await expect.element(gå).toBeDisabled();
  });

  it('channel info: links without a community or channel id say so; a failed load says why above the known channel, in Swedish, with a retry', async () => {
    await renderApp(fakeEngine().asTab, '/explore/kopi/channels/11');
    await expect.element(page.getByRole('alert')).toHaveTextContent('Community ID not available');
    await unmount();
    const noChannel = await renderApp(fakeEngine().asTab, '/explore/7/channels/none');
    await expect.element(page.getByRole('alert')).toHaveTextContent('No channel selected');
    // Back goes to the community the link names.
    await userEvent.click(page.getByRole('link', { name: 'Back' }));
    await expect.poll(() => noChannel.router.state.location.pathname).toBe('/explore/7');
    await unmount();

    const { engine, asTab } = fakeEngine();
    engine.loadChannel.mockRejectedValueOnce({ name: 'EngineError', status: 0, message: 'Community ID not available', fallback: 'x', call: 'getChannel' });
    await renderApp(asTab, '/explore/7/channels/11', 'sv');
    await expect.element(page.getByRole('alert')).toHaveTextContent('Gemenskapens id saknas');
    await expect.element(page.getByRole('heading', { name: 'Pengumuman' })).toBeInTheDocument();
    await userEvent.click(page.getByRole('button', { name: 'Försök igen' }));
    await expect.poll(() => engine.loadChannel.mock.calls.length).toBe(2);
    await expect.element(page.getByRole('alert')).not.toBeInTheDocument();
  });

  it('channel info: a channel of another community than the link says opens under its own community', async () => {
    const { asTab } = fakeEngine({}, channel(21, 'Galeri', { community_id: 8 }));
    const { router } = await renderApp(asTab, '/explore/7/channels/21');
    await expect.poll(() => router.state.location.pathname).toBe('/explore/8/channels/21');
  });
});

describe('the center beside the community screens', () => {
  it('says what belongs beside explore, a community and a channel’s info, never "Select a chat", in English and Swedish', async () => {
    await page.viewport(1280, 800);
    try {
      const { asTab } = fakeEngine({}, channel(13, 'Resep & Tips', { read_only: true, is_member: false }));
      const { router } = await renderApp(asTab, '/explore');
      const center = page.getByRole('main');
      await expect.element(center).toHaveTextContent('Communities');
      await expect.element(center).toHaveTextContent('Pick a community on the left to see its channels.');
      await router.navigate({ to: '/explore/7' });
      await expect.element(center).toHaveTextContent('Open a channel you joined to read its posts here');
      await router.navigate({ to: '/explore/7/channels/13' });
      await expect.element(center).toHaveTextContent('Join the channel and its posts open here');
      expect(center.element().textContent).not.toContain('Select a chat');
      await router.navigate({ to: '/inbox' });
      await expect.element(center).toHaveTextContent('Select a chat');

      await renderApp(asTab, '/explore', 'sv');
      await expect.element(page.getByRole('main')).toHaveTextContent('Välj en gemenskap till vänster för att se dess kanaler.');
    } finally {
      await page.viewport(414, 896);
    }
  });
});
