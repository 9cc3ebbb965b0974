import { makeAutoObservable } from 'mobx';

import type { ApiTransport } from '@/lib/api-client';
import type { Area, NewsArticle, NewsCategory, NewsItem, Paginated } from '@/types/api';

/** Notice categories (spec §9). */
export const NOTICE_CATEGORY = {
  announcements: 22,
  banners: 23,
  news: 24,
  about: 25,
  support: 26,
} as const;

/** The privacy policy the register form links to (spec §2). */
export const PRIVACY_NOTICE = { id: 66, categoryId: NOTICE_CATEGORY.support } as const;

/** The public site settings the shell reads through default/setting (the app links: one per store). */
export const SETTING_KEYS = [
  'kefu',
  'login_use_sms',
  'tips',
  'contact_mobile',
  'contact_email',
  'app_download_ios',
  'app_download_android',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

/** How many notices a category list asks for; the footer shows only the first 3. */
const NOTICE_PAGE = 50;

/** Site settings, notices (banners included) and areas: read-only content the pages share. */
export class ContentStore {
  settings: Partial<Record<SettingKey, string>> = {};
  /** Notices by category id, newest first. */
  notices = new Map<number, NewsItem[]>();
  /** Notice bodies by id. */
  articles = new Map<number, NewsArticle>();
  areas: Area[] = [];
  /** The notice categories (news/categories), in the server's order; empty until read. */
  categories: NewsCategory[] = [];

  constructor(private readonly api: ApiTransport) {
    makeAutoObservable<ContentStore, 'api'>(this, { api: false });
  }

  /** The customer-service link; the header shows it only when it has a value. */
  get kefu(): string {
    return (this.settings.kefu ?? '').trim();
  }

  /** Where each store publishes the app (console settings); a store without a link is not shown. */
  get appLinks(): { ios: string; android: string } {
    const link = (value: string | undefined) => {
      const text = (value ?? '').trim();
      return text.startsWith('https://') ? text : '';
    };
    return { ios: link(this.settings.app_download_ios), android: link(this.settings.app_download_android) };
  }

  /** Login asks for a verification code when the login_use_sms setting is on. */
  get loginUseSms(): boolean {
    const value = (this.settings.login_use_sms ?? '').trim().toLowerCase();
    return value === '1' || value === 'true';
  }

  /** Carousel slides: banner-category notices that have an image. */
  get banners(): NewsItem[] {
    return this.noticesOf(NOTICE_CATEGORY.banners).filter((n) => n.banner);
  }

  noticesOf(categoryId: number): NewsItem[] {
    return this.notices.get(categoryId) ?? [];
  }

  /** Reads the public settings; a setting that fails to load stays unset. */
  async loadSettings(keys: readonly SettingKey[] = SETTING_KEYS): Promise<void> {
    await Promise.all(
      keys.map(async (key) => {
        const value = await this.api
          .get<string>('default/setting', { params: { key }, quiet: true })
          .catch(() => undefined);
        if (typeof value === 'string') this.setSetting(key, value);
      }),
    );
  }

  async loadNotices(categoryId: number): Promise<NewsItem[]> {
    const page = await this.api.get<Paginated<NewsItem>>('news/list', {
      params: { category_id: categoryId, limit: NOTICE_PAGE },
      quiet: true,
    });
    const items = page?.data ?? [];
    this.setNotices(categoryId, items);
    return items;
  }

  /**
   * The categories a reader switches between on the notice page: every category news/categories
   * answers but the banners, which are the carousel's images rather than something to read.
   */
  get readableCategories(): NewsCategory[] {
    return this.categories.filter((c) => c.id !== NOTICE_CATEGORY.banners);
  }

  async loadCategories(): Promise<NewsCategory[]> {
    const categories = await this.api.get<NewsCategory[]>('news/categories', { quiet: true });
    if (categories) this.setCategories(categories);
    return this.categories;
  }

  async loadArticle(id: number): Promise<NewsArticle | undefined> {
    const article = await this.api.get<NewsArticle>('news/info', { params: { id } });
    if (article) this.setArticle(article);
    return article;
  }

  async loadAreas(): Promise<void> {
    if (this.areas.length) return;
    const areas = await this.api.get<Area[]>('default/area_list', { quiet: true }).catch(() => undefined);
    if (areas) this.setAreas(areas);
  }

  setSetting(key: SettingKey, value: string): void {
    this.settings[key] = value;
  }

  setNotices(categoryId: number, items: NewsItem[]): void {
    this.notices.set(categoryId, items);
  }

  setCategories(categories: NewsCategory[]): void {
    this.categories = categories;
  }

  setArticle(article: NewsArticle): void {
    this.articles.set(article.id, article);
  }

  setAreas(areas: Area[]): void {
    this.areas = areas;
  }
}
