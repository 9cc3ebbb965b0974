import { beforeEach, describe, expect, it } from 'vitest';

import { fakeTransport } from '@/test/fake-transport';

import { ContentStore, NOTICE_CATEGORY } from '../content-store';

let transport: ReturnType<typeof fakeTransport>;

beforeEach(() => {
  transport = fakeTransport();
});

function news(id: number, banner = '') {
  return { id, category_id: 23, title: `n${id}`, banner, created_at: '2026-11-01T08:00:00Z' };
}

describe('ContentStore', () => {
  it('reads the public settings; kefu only counts when it has a value', async () => {
    const values: Record<string, string> = { kefu: '  ', login_use_sms: '1', tips: 'Be careful' };
    transport.answer('default/setting', (options: { params: { key: string } }) => values[options.params.key] ?? '');
    const content = new ContentStore(transport.api);
    await content.loadSettings();
    expect(transport.get).toHaveBeenCalledTimes(7);
    expect(content.kefu).toBe('');
    expect(content.loginUseSms).toBe(true);
    expect(content.settings.tips).toBe('Be careful');
    content.setSetting('kefu', 'https://chat.example');
    expect(content.kefu).toBe('https://chat.example');
    content.setSetting('login_use_sms', '0');
    expect(content.loginUseSms).toBe(false);
  });

  it('shows an app store link only when the console set one', async () => {
    const values: Record<string, string> = { app_download_ios: ' https://apps.apple.com/app/id1 ', app_download_android: '' };
    transport.answer('default/setting', (options: { params: { key: string } }) => values[options.params.key] ?? '');
    const content = new ContentStore(transport.api);
    await content.loadSettings();
    expect(content.appLinks).toEqual({ ios: 'https://apps.apple.com/app/id1', android: '' });
    content.setSetting('app_download_android', 'javascript:alert(1)');
    expect(content.appLinks.android).toBe('');
  });

  it('reads the notice categories from news/categories; the notice page offers all but the banners', async () => {
    transport.answer('news/categories', [
      { id: 22, name: 'Announcements' }, { id: 23, name: 'Banners' }, { id: 24, name: 'News' },
      { id: 30, name: 'Listings' },
    ]); // prettier-ignore
    const content = new ContentStore(transport.api);
    await content.loadCategories();
    expect(transport.get).toHaveBeenCalledWith('news/categories', { quiet: true });
    expect(content.readableCategories.map((c) => c.id)).toEqual([22, 24, 30]);
  });

  it('keeps notices per category; banners are those with an image', async () => {
    transport.answer('news/list', { data: [news(54, '/banners/spot.svg'), news(55)], total: 2 });
    const content = new ContentStore(transport.api);
    await content.loadNotices(NOTICE_CATEGORY.banners);
    expect(transport.get).toHaveBeenCalledWith('news/list', {
      params: { category_id: 23, limit: 50 },
      quiet: true,
    });
    expect(content.noticesOf(23).map((n) => n.id)).toEqual([54, 55]);
    expect(content.banners.map((n) => n.id)).toEqual([54]);
    expect(content.noticesOf(22)).toEqual([]);
  });

  it('caches notice bodies by id', async () => {
    transport.answer('news/info', { ...news(66), content: '<p>Privacy</p>' });
    const content = new ContentStore(transport.api);
    await content.loadArticle(66);
    expect(content.articles.get(66)?.content).toBe('<p>Privacy</p>');
  });
});
