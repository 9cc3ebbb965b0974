import { makeAutoObservable, runInAction } from 'mobx';

import type { AdminTransport } from '../api/admin-client';
import type { Category, Notice, NoticeDraft, Setting } from '../api/types';
import { messageOf, Resource } from './resource';

export function emptyDraft(categoryId: number): NoticeDraft {
  return { id: null, category_id: categoryId, title: '', banner: '', content: '', sort: 0 };
}

/** The content role's notices (by category), the notice editor and the site settings. */
export class ContentStore {
  readonly categories: Resource<Category[]>;
  readonly notices: Resource<Notice[]>;
  readonly settings: Resource<Setting[]>;
  categoryId = 0;
  draft: NoticeDraft | null = null;
  settingValues: Record<string, string> = {};
  /** Settings typed and not yet saved: a reload of the list (after another row's save) keeps them. */
  private edited = new Set<string>();
  error = '';
  saved = '';

  constructor(private readonly api: AdminTransport) {
    this.categories = new Resource(() => this.api.get<Category[]>('/api/news/categories'));
    this.notices = new Resource(() => this.api.get<Notice[]>('news', { category_id: this.categoryId }));
    this.settings = new Resource(async () => {
      const rows = await this.api.get<Setting[]>('settings');
      runInAction(() => {
        const stored = Object.fromEntries(rows.map((r) => [r.key, r.value]));
        for (const key of this.edited) stored[key] = this.settingValues[key] ?? '';
        this.settingValues = stored;
      });
      return rows;
    });
    makeAutoObservable(this, {}, { autoBind: true });
  }

  setCategory(id: number): void {
    this.categoryId = id;
    void this.notices.load();
  }

  /** Whether a new notice can be started: its category comes from the loaded categories (their ids are
   * the spec's, 22 and up; guessing one before they load saved into a category that does not exist). */
  get canAdd(): boolean {
    return (this.categories.data?.length ?? 0) > 0;
  }

  edit(notice: Notice | null): void {
    if (!notice && !this.canAdd) return;
    const fallback = this.categoryId || this.categories.data![0]!.id;
    this.draft = notice
      ? { id: notice.id, category_id: notice.category_id, title: notice.title, banner: notice.banner,
          content: notice.content, sort: notice.sort } // prettier-ignore
      : emptyDraft(fallback);
    this.error = '';
    this.saved = '';
  }

  change<K extends keyof NoticeDraft>(key: K, value: NoticeDraft[K]): void {
    if (this.draft) this.draft = { ...this.draft, [key]: value };
  }

  close(): void {
    this.draft = null;
  }

  async save(): Promise<boolean> {
    if (!this.draft) return false;
    return this.send(async () => {
      await this.api.post('news/save', this.draft);
      runInAction(() => (this.draft = null));
      await this.notices.load();
    }, 'notice');
  }

  async remove(id: number): Promise<boolean> {
    return this.send(async () => {
      await this.api.post('news/delete', { id });
      await this.notices.load();
    }, 'deleted');
  }

  setSetting(key: string, value: string): void {
    this.settingValues = { ...this.settingValues, [key]: value };
    this.edited.add(key);
  }

  async saveSetting(key: string): Promise<boolean> {
    return this.send(async () => {
      await this.api.post('settings/save', { key, value: this.settingValues[key] ?? '' });
      runInAction(() => this.edited.delete(key));
      await this.settings.load();
    }, key);
  }

  private async send(action: () => Promise<void>, what: string): Promise<boolean> {
    this.error = '';
    this.saved = '';
    try {
      await action();
      runInAction(() => (this.saved = what));
      return true;
    } catch (error) {
      runInAction(() => (this.error = messageOf(error)));
      return false;
    }
  }
}
